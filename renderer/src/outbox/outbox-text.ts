// What the outbox bar says about a message on its way: "Sending to ann@example.com in 8 s", "Sending to
// ann@example.com and 2 others…", "Not sent to ann@example.com: <Skimmer's sentence>", and after Undo "Back
// in Drafts: not sent to ann@example.com. …". Recipients were written by the assistant (perhaps from an
// email), so they are shown as text with direction controls removed. Pure; tested in outbox-text.test.ts.
import type { OutboxItem } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';

export function recipientsText(to: readonly string[]): string {
  const [first, ...rest] = to.map(displayText);
  if (first === undefined) return 'no one';
  if (rest.length === 0) return first;
  return `${first} and ${rest.length} other${rest.length === 1 ? '' : 's'}`;
}

/** Whole seconds until the message goes out (Undo works until then), never below zero. */
function undoSecondsLeft(item: Pick<OutboxItem, 'sendAfter'>, now: number): number {
  return Math.max(0, Math.ceil((item.sendAfter - now) / 1000));
}

// Only a queued message still waiting can be taken back; once due, the sender may claim it at any moment.
export function canUndo(item: Pick<OutboxItem, 'state' | 'sendAfter'>, now: number): boolean {
  return item.state === 'queued' && undoSecondsLeft(item, now) > 0;
}

export function outboxLine(
  item: Pick<OutboxItem, 'state' | 'to' | 'sendAfter' | 'error'>,
  now: number,
): string {
  const to = recipientsText(item.to);
  switch (item.state) {
    case 'queued': {
      const left = undoSecondsLeft(item, now);
      if (left > 0) return `Sending to ${to} in ${left} s`;
      // Kept queued by a refused sign-in: it goes once the person has signed in again.
      return item.error ? `Waiting to send to ${to}: ${item.error}` : `Sending to ${to}…`;
    }
    case 'sending':
      return `Sending to ${to}…`;
    case 'failed':
      return `Not sent to ${to}: ${item.error ?? 'the send failed.'}`;
    case 'sent':
      return `Sent to ${to}.`;
    case 'cancelled':
      return `Not sent to ${to}: cancelled.`;
  }
}

// After Undo: the message is a draft again, the user's to edit or discard, also when the assistant wrote it.
export function returnedLine(to: readonly string[]): string {
  return `Back in Drafts: not sent to ${recipientsText(to)}. Edit it or discard it there.`;
}

// Whether the list must be read again soon: something may change by itself (a countdown ends, a send ends).
export function outboxBusy(items: readonly Pick<OutboxItem, 'state'>[]): boolean {
  return items.some((item) => item.state === 'queued' || item.state === 'sending');
}
