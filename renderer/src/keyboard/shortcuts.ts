// Keyboard first (DESIGN §12): j/k move in the list, Enter opens, / searches, Esc clears the selection, else
// the search, u toggles read, s toggles the star, e archives, # moves to Trash and ! to Spam (Not spam in
// Spam), l labels and v moves: each acts on the selection when there is one (with Shift+I and Shift+U, mark
// read and unread: thread-selection.ts `selectionKeyAction`, search-selection.ts in search results), else on
// the conversation at the cursor; x selects the row (or the mail hit's conversation) at the cursor, g then
// i/s/d/t/a goes to a view (go-to.ts); c writes a new mail, and r, a and f reply, reply all and forward the
// newest message of the open conversation; in the chat view, Esc stops a running answer. Dialogs handle their
// own keys (Esc closes or cancels them), so nothing here runs while one is open, nor while the focus is in
// the composer (its keys are its own: compose/ComposePanel.tsx). `]` and `[` archive and open the older or
// newer conversation, z undoes the last change (the Undo bar's button), ? lists every key: the list is
// shortcut-table.ts, whose keys the conversation keys' map below must match.

import { useEffect } from 'react';
import { backToList } from '../layout/BackToList.tsx';
import { isNarrow } from '../layout/narrow.ts';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useChatStore } from '../stores/chat-store.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { useIdentitiesStore } from '../stores/identities-store.ts';
import { useImportStore } from '../stores/import-store.ts';
import { useMailBulkStore } from '../stores/mail-bulk-store.ts';
import { useMailMovesStore } from '../stores/mail-moves-store.ts';
import { useMailStarStore } from '../stores/mail-star-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { orderedThreads } from '../stores/ordered-list-store.ts';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { usePickerStore } from '../stores/picker-store.ts';
import { hitsSelectionKeyAction } from '../stores/search-selection.ts';
import { useSelectionStore } from '../stores/selection-store.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { useShortcutHelpStore } from '../stores/shortcut-help-store.ts';
import { useThreadOpenStore } from '../stores/thread-open-store.ts';
import { selectionKeyAction } from '../stores/thread-selection.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { useUndoStore } from '../stores/undo-store.ts';
import { useUnsubscribeStore } from '../stores/unsubscribe-store.ts';
import { isOrdered } from '../triage/triage-order.ts';
import { goToView } from './go-to.ts';
import type { ListKey } from './shortcut-table.ts';

// Tag names rather than instanceof: keys also arrive from the mail frame, whose elements belong to another realm.
const typingTags = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
const activatingTags = new Set(['BUTTON', 'A', 'SUMMARY']);
// A `g` was pressed: the next key is a go-to (go-to.ts), whatever it is.
let awaitingGoTo = false;
// The keys that act in the Drafts view, which lists no conversation.
const draftsViewKeys = new Set(['/', '?', 'z']);

export function handleShortcut(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (
    useImportStore.getState().open ||
    useServicesStore.getState().open ||
    usePermissionsStore.getState().open ||
    useAccountsStore.getState().open ||
    useTriageStore.getState().open ||
    useDraftsStore.getState().open ||
    useDocumentsStore.getState().open ||
    useIdentitiesStore.getState().open ||
    useDocumentsStore.getState().page !== null ||
    usePickerStore.getState().open !== null ||
    useMailStore.getState().pendingLink ||
    useUnsubscribeStore.getState().confirming !== null ||
    useShortcutHelpStore.getState().open ||
    // Any other modal dialog (an attachment's preview, the warning before Open): the keys are its own, and Esc
    // closes it rather than clearing the search behind it.
    document.querySelector('dialog.modal[open]') !== null
  ) {
    return;
  }
  const target = event.target as HTMLElement | null;
  if (useAppStore.getState().view === 'chat') {
    handleChatKey(event);
    return;
  }
  if (target && (typingTags.has(target.tagName) || target.isContentEditable)) return;
  if (target?.closest?.('[data-composer]')) return;
  const mail = useMailStore.getState();
  if (awaitingGoTo || event.key === 'g') {
    handleGoTo(event);
    return;
  }
  if (handleComposeKey(event)) {
    event.preventDefault();
    return;
  }
  // A narrow window shows the reader in the list's place: Esc and u go back to the list, as Gmail's u does.
  if (narrowReading(event, mail)) return;
  // The Drafts view lists drafts, not conversations: the conversation keys would act on none shown.
  if (mail.hits === null && mail.folderId === null && mail.view === 'drafts') {
    if (!draftsViewKeys.has(event.key)) return;
    listKeys[event.key as ListKey](event, mail, target);
    event.preventDefault();
    return;
  }
  if (mail.hits === null && isOrdered(useTriageStore.getState().order)) {
    handleOrderedKey(event);
    return;
  }
  // With conversations checked, the conversation keys act on all of them, as Gmail's do (one mail:bulk batch).
  const selection = useSelectionStore.getState();
  const onSelection =
    selection.current() === null
      ? null
      : mail.hits === null
        ? selectionKeyAction(event.key, selection, mail.pages)
        : hitsSelectionKeyAction(event.key, selection);
  if (onSelection) {
    // A key repeat would send the batch again.
    if (!event.repeat) void useMailBulkStore.getState().act(onSelection);
    event.preventDefault();
    return;
  }
  const action = Object.hasOwn(listKeys, event.key) ? listKeys[event.key as ListKey] : undefined;
  if (!action || action(event, mail, target) === false) return;
  event.preventDefault();
}

type Mail = ReturnType<typeof useMailStore.getState>;
// false: the key does nothing here, and goes on to the page (no preventDefault).
type KeyAction = (event: KeyboardEvent, mail: Mail, target: HTMLElement | null) => boolean | undefined;

// The conversation keys of the list and the reader: one action for each key of the table's list sections
// (shortcut-table.ts), no more, no fewer.
const listKeys = {
  j: (_e, mail) => void mail.moveCursor(1),
  k: (_e, mail) => void mail.moveCursor(-1),
  Enter: (_e, mail, target) => {
    if (target && (activatingTags.has(target.tagName) || target.getAttribute('role') === 'link'))
      return false;
    mail.openAtCursor();
  },
  '/': (_e, mail) => void mail.focusSearch(),
  // Gmail's keys for the open conversation's messages: `;` expands all, `:` (Shift+; on a US keyboard) collapses all.
  ';': (_e, mail) => {
    if (mail.openThread === null) return false;
    useThreadOpenStore.getState().expandAll();
  },
  ':': (_e, mail) => {
    if (mail.openThread === null) return false;
    useThreadOpenStore.getState().collapseAll();
  },
  u: (_e, mail) => void mail.toggleRead(),
  s: (event) => {
    if (!event.repeat) void useMailStarStore.getState().toggleStar();
  },
  // A key repeat would move the next conversation too.
  e: (event) => {
    if (!event.repeat) void useMailMovesStore.getState().move('archive');
  },
  // Gmail's: archive, then open the older (`]`) or newer (`[`) conversation, in the reader and from the list.
  ']': (event) => {
    if (!event.repeat) void useMailMovesStore.getState().archiveAndGo('older');
  },
  '[': (event) => {
    if (!event.repeat) void useMailMovesStore.getState().archiveAndGo('newer');
  },
  '#': (event) => {
    if (!event.repeat) void useMailMovesStore.getState().move('trash');
  },
  '!': (event) => {
    if (!event.repeat) void useMailBulkStore.getState().spam();
  },
  x: (_e, mail) => {
    if (mail.hits !== null) useSelectionStore.getState().toggleHit(mail.hitCursor);
    else useSelectionStore.getState().toggle(mail.cursor);
  },
  l: () => void usePickerStore.getState().openLabels(),
  v: () => void usePickerStore.getState().openMove(),
  // The Undo bar's button, also once the bar has gone, while the change can still be taken back.
  z: (event) => {
    if (!event.repeat) void useUndoStore.getState().undo();
  },
  '?': () => void useShortcutHelpStore.getState().show(),
  Escape: (_e, mail) => {
    const selection = useSelectionStore.getState();
    if (selection.current() !== null) {
      selection.clear();
      return;
    }
    if (mail.hits === null && mail.query === '') return false;
    mail.clearSearch();
  },
} satisfies Record<ListKey, KeyAction>;

// c, r, a, f: the composer, in every list. The answers are to the newest message of the open conversation, as
// Gmail's r answers the last message. True when the key was one of them.
function handleComposeKey(event: KeyboardEvent): boolean {
  const kinds = { r: 'reply', a: 'all', f: 'forward' } as const;
  if (event.key !== 'c' && !(event.key in kinds)) return false;
  if (event.repeat) return true;
  const compose = useComposeStore.getState();
  if (event.key === 'c') {
    void compose.compose();
    return true;
  }
  const messages = useMailStore.getState().openThread?.messages ?? [];
  const newest = messages.reduce<(typeof messages)[number] | null>(
    (best, m) => (best === null || m.date >= best.date ? m : best),
    null,
  );
  if (newest) void compose.answer(kinds[event.key as keyof typeof kinds], newest.id);
  return true;
}

function handleGoTo(event: KeyboardEvent): void {
  if (['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) return;
  event.preventDefault();
  if (!awaitingGoTo) {
    awaitingGoTo = true;
    return;
  }
  awaitingGoTo = false;
  const view = goToView(event.key);
  if (view !== null) useMailStore.getState().selectView(view);
}

// While the list is ordered by triage answers, the keys act on its rows and the open thread: the paged list's
// cursor is hidden then and must not choose what e or # moves.
function handleOrderedKey(event: KeyboardEvent): void {
  const mail = useMailStore.getState();
  const rows = orderedThreads();
  const openId = mail.openThread?.id ?? null;
  const at = rows.findIndex((thread) => thread.id === openId);
  switch (event.key) {
    case 'z':
      if (!event.repeat) void useUndoStore.getState().undo();
      break;
    case '?':
      useShortcutHelpStore.getState().show();
      break;
    case 'j':
    case 'k': {
      const step = event.key === 'j' ? 1 : -1;
      const next = rows[at === -1 ? 0 : Math.min(Math.max(at + step, 0), rows.length - 1)];
      if (next && next.id !== openId) void mail.openThreadById(next.id);
      break;
    }
    case '/':
      mail.focusSearch();
      break;
    case 'e':
    case '#':
      if (event.repeat || openId === null) break;
      void useMailMovesStore.getState().move(event.key === 'e' ? 'archive' : 'trash', openId);
      break;
    case ']':
    case '[':
      if (event.repeat || openId === null) break;
      void useMailMovesStore.getState().archiveAndGo(event.key === ']' ? 'older' : 'newer', openId);
      break;
    case 's':
      if (event.repeat || openId === null) break;
      void useMailStarStore.getState().toggleStar(openId);
      break;
    case '!':
      if (event.repeat || openId === null) break;
      void useMailMovesStore.getState().move('spam', openId);
      break;
    case 'l':
      if (openId !== null) void usePickerStore.getState().openLabels(openId);
      break;
    case 'v':
      if (openId !== null) usePickerStore.getState().openMove(openId);
      break;
    default:
      return;
  }
  event.preventDefault();
}

// The chat view: Esc stops a running answer (DESIGN §12) wherever the focus is, the message box included, so
// Stop is one key away while typing. The mail keys do nothing here: the mail list is not on screen.
function handleChatKey(event: KeyboardEvent): void {
  const chat = useChatStore.getState();
  if (event.key !== 'Escape' || chat.live === null) return;
  event.preventDefault();
  void chat.stop();
}

export function useShortcuts(): void {
  useEffect(() => {
    document.addEventListener('keydown', handleShortcut);
    return () => document.removeEventListener('keydown', handleShortcut);
  }, []);
}

function narrowReading(event: KeyboardEvent, mail: ReturnType<typeof useMailStore.getState>): boolean {
  if ((event.key !== 'Escape' && event.key !== 'u') || !isNarrow()) return false;
  if (mail.openThread === null && mail.threadLoadingId === null) return false;
  if (event.key === 'Escape' && useSelectionStore.getState().current() !== null) return false;
  backToList();
  event.preventDefault();
  return true;
}
