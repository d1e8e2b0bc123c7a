// What an MCP client shows the user when Skimmer asks through elicitation (DESIGN §13, "Outside agents"):
// Skimmer's own preview of the call, as the app's approval card has it — what changes, which messages by
// subject and sender, every recipient, the body of a message to send —, the marks for whatever came from an
// email or was never written by the user, and who asked. Pure; the client shows it as plain text.
import type { ApprovalCall } from '../../shared/contract/index.ts';
import { revealHidden } from '../../shared/reveal-hidden.ts';
import { stripHiddenText } from '../text/hidden-characters.ts';

const effectText: Record<ApprovalCall['effect'], string> = {
  read: 'It reads mail.',
  write: 'It changes mail; you can undo it in Skimmer.',
  send: 'It sends mail: once the undo window has passed, it cannot be taken back.',
  delete: 'It moves mail to the Trash; you can undo it in Skimmer.',
};

/**
 * The client's name as it gave it (its display title when it gave one, MCP 2025-06-18's `Implementation.title`,
 * else its name; then its version): its own words, so shown without hidden characters, on one line, capped.
 */
export function clientName(info: { name?: string; title?: string; version?: string } | undefined): string {
  const who = info?.title?.trim() || info?.name;
  const raw = who ? `${who}${info?.version ? ` ${info.version}` : ''}` : 'an unnamed client';
  const clean = stripHiddenText(raw).text.replace(/\s+/g, ' ').trim();
  return Array.from(clean).slice(0, 80).join('') || 'an unnamed client';
}

// SECURITY: the client shows this as plain text, so every character that draws nothing is a visible mark and no
// line can break in two (a subject's line break once drew a fake "In reply to:" line here). Skimmer's preview is
// revealed already (mail-previews.ts); this holds for whatever else reaches the text (issue 27).
const line = (text: string) => revealHidden(text, { oneLine: true }).text;

export function approvalMessage(call: ApprovalCall, client: string): string {
  const { fromUntrusted, notNamedByUser } = call.provenance;
  return [
    `Skimmer: ${line(call.preview.title)}`,
    `Asked by an outside agent: ${client}`,
    effectText[call.effect],
    '',
    ...call.preview.lines.map(line),
    ...(notNamedByUser.length > 0 || fromUntrusted.length > 0 ? [''] : []),
    ...notNamedByUser.map((d) => `⚠ ${line(d)}: you never wrote this; it came from the agent or an email.`),
    ...(fromUntrusted.length > 0
      ? [`⚠ Came from an email, not from you: ${line(fromUntrusted.join(', '))}.`]
      : []),
    '',
    'Accept to let Skimmer do this once; decline to refuse it.',
  ].join('\n');
}
