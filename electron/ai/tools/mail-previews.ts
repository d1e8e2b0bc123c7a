// What an approval card says about a mail tool call (DESIGN §7, "Approval UI"): which messages it touches
// and what changes, or for a message to send, all of it as it will go. Written by Skimmer from the stored
// mail, so the card shows the real subjects, not the model's description of them.
import { hiddenWarning, revealHidden } from '../../../shared/reveal-hidden.ts';
import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { stripHiddenText } from '../../text/hidden-characters.ts';
import type { CallPreview } from './tool.ts';

/** A card lists at most this many messages, then says how many more. */
const maxLines = 12;
const maxSubject = 120;

// SECURITY: subjects and names come from mail; hidden and direction-control characters are removed so the
// card cannot show one thing and mean another (the renderer shows them as text).
const shown = (text: string, max: number) => {
  const clean = stripHiddenText(text).text.replace(/\s+/g, ' ').trim();
  const points = Array.from(clean);
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : clean;
};
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The model's or an agent's own words, shown as they will be stored or sent. SECURITY: nothing is removed or
 * cut; every character that draws nothing is a visible placeholder (shared/reveal-hidden.ts), and the card says
 * how many there are, so what is approved is what goes out (issue 27).
 */
function revealed(parts: { text: string; oneLine?: boolean }[]): { texts: string[]; warning: string[] } {
  let hidden = 0;
  const texts = parts.map((p) => {
    const r = revealHidden(p.text, { oneLine: p.oneLine === true });
    hidden += r.hidden;
    return r.text;
  });
  const warning = hiddenWarning(hidden);
  return { texts, warning: warning ? [warning] : [] };
}

export function prepareMailPreviews(db: Db) {
  const mail = prepareMessageReads(db);

  /** One line per message (subject, sender, folder), capped, with unknown ids said plainly. */
  function messageLines(ids: readonly number[]): string[] {
    const unique = [...new Set(ids)];
    const lines = unique.slice(0, maxLines).map((id) => {
      const row = mail.headline(id);
      if (!row) return `#${id}: no such message`;
      const from = row.fromName ? `${shown(row.fromName, 60)} <${row.fromAddr}>` : row.fromAddr;
      return `“${shown(row.subject, maxSubject) || '(no subject)'}” from ${from}, in ${shown(row.folder, 60)}`;
    });
    if (unique.length > maxLines) lines.push(`…and ${unique.length - maxLines} more`);
    return lines;
  }

  const count = (ids: readonly number[]) => plural(new Set(ids).size, 'message');

  return {
    markRead: ({ ids, read }: { ids: number[]; read: boolean }): CallPreview => ({
      title: `Mark ${count(ids)} as ${read ? 'read' : 'unread'}`,
      lines: messageLines(ids),
    }),
    label: ({ ids, add, remove }: { ids: number[]; add: string[]; remove: string[] }): CallPreview => {
      const names = revealed([...add, ...remove].map((text) => ({ text, oneLine: true })));
      const quoted = (from: number, to: number) =>
        names.texts
          .slice(from, to)
          .map((l) => `“${l}”`)
          .join(', ');
      return {
        title: [
          add.length > 0 ? `Add ${quoted(0, add.length)}` : '',
          remove.length > 0 ? `remove ${quoted(add.length, add.length + remove.length)}` : '',
        ]
          .filter(Boolean)
          .join(', ')
          .replace(/^r/, 'R')
          .concat(` on ${count(ids)}`),
        lines: [...names.warning, ...messageLines(ids)],
      };
    },
    move:
      (title: (messages: string) => string) =>
      ({ ids }: { ids: number[] }): CallPreview => ({
        title: title(count(ids)),
        lines: messageLines(ids),
      }),
    moveToFolder: ({ ids, folder }: { ids: number[]; folder: string }): CallPreview => {
      const name = revealed([{ text: folder, oneLine: true }]);
      return {
        title: `Move ${count(ids)} to “${name.texts[0]}”`,
        lines: [...name.warning, ...messageLines(ids)],
      };
    },
    /** The whole message as it will go: every header, and the body line by line. */
    mail:
      (verb: string) =>
      (m: {
        to: string[];
        cc: string[];
        subject: string;
        body: string;
        inReplyTo?: number | undefined;
      }): CallPreview => {
        const original = m.inReplyTo === undefined ? undefined : mail.headline(m.inReplyTo);
        const bodyLines = m.body.split(/\r?\n/);
        const shownParts = revealed([
          { text: m.to.join(', '), oneLine: true },
          { text: m.cc.join(', '), oneLine: true },
          { text: m.subject, oneLine: true },
          ...bodyLines.map((text) => ({ text })),
        ]);
        const [to = '', cc = '', subject = '', ...body] = shownParts.texts;
        return {
          title: `${verb} to ${to}`,
          lines: [
            ...shownParts.warning,
            `To: ${to}`,
            ...(m.cc.length > 0 ? [`Cc: ${cc}`] : []),
            `Subject: ${subject}`,
            ...(m.inReplyTo === undefined
              ? []
              : [
                  original
                    ? `In reply to: “${shown(original.subject, maxSubject)}” from ${original.fromAddr}`
                    : `In reply to: #${m.inReplyTo}: no such message`,
                ]),
            '',
            ...body,
          ],
        };
      },
  };
}
