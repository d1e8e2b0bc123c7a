// Gmail's go-to keys (issue 16): g, then i Inbox, s Starred, d Drafts, t Sent, a All mail. The key after g
// is taken by the go-to whatever it is, so `g` `s` never also stars the conversation under the cursor.
import type { MailView } from '../../../shared/contract/index.ts';

const targets = new Map<string, MailView>([
  ['i', 'inbox'],
  ['s', 'starred'],
  ['d', 'drafts'],
  ['t', 'sent'],
  ['a', 'all'],
]);

/** The view `g` then `key` goes to, or null when that key goes nowhere. */
export function goToView(key: string): MailView | null {
  return targets.get(key) ?? null;
}
