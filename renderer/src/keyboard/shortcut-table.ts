// Every keyboard shortcut, in one table (issue 29 §7): the `?` dialog lists it, and the handler (shortcuts.ts)
// takes its keys from it — the conversation keys through a map typed by this table's keys, so a key listed
// here without an action, or handled without a line here, does not compile. Pure data; the dialog's sections
// are in the order below.
import { goToTargets } from './go-to.ts';

type Row = {
  /** `KeyboardEvent.key` (the character counts: `#` is Shift+3 on a US keyboard and its own key elsewhere). */
  readonly key: string;
  readonly does: string;
};

/** The keys the list and the reader act on (shortcuts.ts `listKeys`), by section. */
export const listShortcuts = {
  'Move around': [
    { key: 'j', does: 'Next (older) conversation' },
    { key: 'k', does: 'Previous (newer) conversation' },
    { key: 'Enter', does: 'Open the conversation' },
    { key: '/', does: 'Search' },
    { key: 'Escape', does: 'Clear the selection, else the search' },
  ],
  Conversation: [
    { key: 'e', does: 'Archive' },
    { key: ']', does: 'Archive and open the older conversation' },
    { key: '[', does: 'Archive and open the newer conversation' },
    { key: '#', does: 'Move to Trash' },
    { key: '!', does: 'Report spam (Not spam in Spam)' },
    { key: 's', does: 'Star or unstar' },
    { key: 'u', does: 'Mark read or unread' },
    { key: 'x', does: 'Select the conversation' },
    { key: 'l', does: 'Labels…' },
    { key: 'v', does: 'Move to…' },
    { key: ';', does: 'Expand every message of the open conversation' },
    { key: ':', does: 'Collapse every message of the open conversation' },
    { key: 'z', does: 'Undo the last action' },
    { key: '?', does: 'Show these shortcuts' },
  ],
} as const satisfies Record<string, readonly Row[]>;

export type ListKey = (typeof listShortcuts)[keyof typeof listShortcuts][number]['key'];

/** Keys handled before the conversation keys (shortcuts.ts), listed as they read in the dialog. */
const otherShortcuts: Record<string, readonly Row[]> = {
  Write: [
    { key: 'c', does: 'Write a new mail' },
    { key: 'r', does: 'Reply to the newest message' },
    { key: 'a', does: 'Reply all' },
    { key: 'f', does: 'Forward' },
  ],
  Selection: [
    { key: 'I', does: 'Mark the selected conversations read' },
    { key: 'U', does: 'Mark the selected conversations unread' },
  ],
  'Go to': goToTargets.map((t) => ({ key: `g ${t.key}`, does: `Go to ${t.label}` })),
  'Narrow window': [
    { key: 'u', does: 'Back to the list from the reader' },
    { key: 'Escape', does: 'Back to the list from the reader' },
  ],
  Chat: [{ key: 'Escape', does: 'Stop the running answer' }],
};

export type ShortcutSection = { title: string; rows: readonly Row[] };

/** The dialog's sections, each row one key and what it does. */
export function shortcutSections(): ShortcutSection[] {
  const sections: Record<string, readonly Row[]> = { ...listShortcuts, ...otherShortcuts };
  const order = ['Move around', 'Conversation', 'Selection', 'Write', 'Go to', 'Narrow window', 'Chat'];
  return order.map((title) => ({ title, rows: sections[title] ?? [] }));
}

const keyNames: Record<string, string> = { Enter: 'Enter', Escape: 'Esc' };

/** How a key is written on the dialog's keycap: `g i` is two keys, one after the other; `I` is Shift+I. */
export function keyCaps(key: string): string[] {
  if (/^[A-Z]$/.test(key)) return ['Shift', key];
  return key.split(' ').map((k) => keyNames[k] ?? k);
}
