// Gmail's go-to keys (issue 16): g, then i Inbox, s Starred, d Drafts, t Sent, a All mail. The key after g
// is taken by the go-to whatever it is, so `g` `s` never also stars the conversation under the cursor.
import type { MailView } from '../../../shared/contract/index.ts';

/** The go-to keys, as the shortcuts dialog lists them (shortcut-table.ts). */
export const goToTargets: readonly { key: string; view: MailView; label: string }[] = [
  { key: 'i', view: 'inbox', label: 'Inbox' },
  { key: 's', view: 'starred', label: 'Starred' },
  { key: 'd', view: 'drafts', label: 'Drafts' },
  { key: 't', view: 'sent', label: 'Sent' },
  { key: 'a', view: 'all', label: 'All mail' },
];

const targets = new Map(goToTargets.map((t) => [t.key, t.view]));

/** The view `g` then `key` goes to, or null when that key goes nowhere. */
export function goToView(key: string): MailView | null {
  return targets.get(key) ?? null;
}
