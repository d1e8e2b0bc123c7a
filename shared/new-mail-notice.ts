// What a new-mail notification says, if anything (issue 28): at most one per sync round of an account, only when
// the person turned notifications on, never for the mail a first sync brings (that is the mailbox arriving, not
// new mail), and then one summary: "3 new messages", "Ana: Lunch?" under it. The senders and subjects come from
// mail, so they are untrusted: shown as plain text (a notification renders no markup on the platforms Skimmer
// runs on, but a name could still carry controls or direction overrides), cut short, one line each. Used by the
// renderer for the browser's Notification and for the desktop's (app:notify); pure, tested in
// new-mail-notice.test.ts.
import type { SyncSummary } from './contract/accounts.ts';

export type NewMailNotice = { title: string; body: string };

// Controls (a line break would forge a second line), format characters (direction overrides, zero-width and tag
// characters) and the line and paragraph separators.
const unshown = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const lineMax = 80;

function plainLine(text: string): string {
  const line = text.replace(unshown, ' ').replace(/\s+/g, ' ').trim();
  return line.length > lineMax ? `${line.slice(0, lineMax - 1).trimEnd()}…` : line;
}

export function newMailNotice(enabled: boolean, newMail: SyncSummary['newMail']): NewMailNotice | null {
  if (!enabled || newMail.firstSync || newMail.count === 0) return null;
  const title =
    newMail.count === 1 ? '1 new message' : `${newMail.count.toLocaleString('en-US')} new messages`;
  const lines = newMail.latest.map((m) => {
    const from = plainLine(m.from) || 'Unknown sender';
    return `${from}: ${plainLine(m.subject) || '(no subject)'}`;
  });
  return { title, body: lines.join('\n') };
}
