// Archive, Trash, Spam and Move of one conversation from the mail view (the reader's buttons, `e`, `#`, `!`
// and the `v` picker, DESIGN §12). A move happens in Skimmer at once and is undoable (the Undo bar offers it);
// for a synced account the background sync takes it to the server. One move at a time, so a held-down `e`
// cannot fire a burst of moves. Spam, Move and Move to Inbox go through mail:bulk with this one conversation, so
// the main process picks its messages by the same rule as for a selection.
import { create } from 'zustand';
import type { BulkAction, Envelope, MessageView, SelectionScope } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isOrdered } from '../triage/triage-order.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';
import { leavingFolders, moveTargets } from './move-targets.ts';
import { orderedThreads, useOrderedListStore } from './ordered-list-store.ts';
import { scopeOf, spamActionFor } from './thread-selection.ts';
import { useTriageStore } from './triage-store.ts';
import { useUndoStore } from './undo-store.ts';

type Toward = 'older' | 'newer';
type MoveKind = 'archive' | 'trash' | 'spam' | 'notSpam' | 'inbox' | 'folder';
/** The places Move… (`v`) offers above the folders, as Gmail's "Move to" does. */
export type MovePlace = 'inbox' | 'archive' | 'spam' | 'trash';

type MovesState = {
  moving: MoveKind | null;
  // The open thread's, from the reader; the selected one's (or else the open one's), from the keyboard.
  // 'spam' is Not spam for a conversation that is spam already (thread-selection.ts `spamActionFor`).
  move(kind: 'archive' | 'trash' | 'spam', threadId?: number): Promise<void>;
  // `]` and `[` (as Gmail's): archives, then opens the older or the newer conversation of the list.
  archiveAndGo(toward: Toward, threadId?: number): Promise<void>;
  // Move… (`v`): to the folder picked.
  moveToFolder(folderId: number, threadId?: number): Promise<void>;
  // Move… (`v`): to the place picked. Archive and Trash as `e` and `#`; Spam is Spam even for a conversation in
  // Spam already (not Not spam, as `!` toggles); the Inbox brings the conversation back from where it is listed.
  moveToPlace(place: MovePlace, threadId?: number): Promise<void>;
};

const channel = { archive: 'mail:archive', trash: 'mail:trash' } as const;
const alreadyThere: Record<MoveKind, string> = {
  archive: 'This conversation is already in Archive.',
  trash: 'This conversation is already in Trash.',
  spam: 'This conversation is already in Spam.',
  notSpam: 'Nothing to move: this conversation has no message in Spam.',
  inbox: 'This conversation is already in the Inbox.',
  folder: 'This conversation is already in that folder.',
};
const nothingToMove: Record<'archive' | 'trash', string> = {
  archive: 'Nothing to archive: this conversation has no message in this folder.',
  trash: 'Nothing to move to Trash: this conversation has no message in this folder.',
};

// Whether the move changed anything; null when it was refused (and said so).
function outcome(reply: Envelope<{ changed: number }>): boolean | null {
  if (reply.ok) return reply.value.changed > 0;
  useAppStore.getState().showError(reply.error);
  return null;
}

// Where the conversation is listed, for mail:bulk: a search moves it whole, as All mail does.
function listScope(mail: ReturnType<typeof useMailStore.getState>): SelectionScope {
  return mail.hits !== null ? { view: 'all' } : scopeOf(mail.folderId, mail.view, null);
}

// Auto-advance in the ordered list: a thread still shown is read again; one gone gives way to the row after it
// that is still shown, else the one before, else an empty reader (`newer`, from `[`: the row before first).
async function leaveOrderedRow(threadId: number, before: readonly number[], toward: Toward): Promise<void> {
  const mail = useMailStore.getState();
  await mail.refresh();
  // Read again in place, as the move changed which conversations it holds.
  await useOrderedListStore.getState().reload(false);
  const shown = new Set(orderedThreads().map((t) => t.id));
  if (shown.has(threadId)) return mail.rereadOpenThread();
  const at = before.indexOf(threadId);
  const after = before.slice(at + 1);
  const earlier = before.slice(0, at).reverse();
  const next = (toward === 'older' ? [...after, ...earlier] : [...earlier, ...after]).find((id) =>
    shown.has(id),
  );
  if (next === undefined) mail.closeThread();
  else await mail.openThreadById(next);
}

export const useMailMovesStore = create<MovesState>()((set, get) => {
  // `action`: what mail:bulk is asked, for a move that is not Archive or Trash; `!` leaves it out (Spam, or Not
  // spam for a conversation in Spam: thread-selection.ts `spamActionFor`).
  async function run(
    kind: 'archive' | 'trash' | 'spam' | 'inbox' | 'folder',
    threadId: number | undefined,
    asked?: BulkAction,
    toward: Toward | null = null,
  ): Promise<void> {
    if (get().moving !== null) return;
    const mail = useMailStore.getState();
    // The keyboard's cursor on a document hit of a search selects no mail: `e` and `#` then do nothing,
    // rather than acting on whatever thread the reader still shows behind the results.
    const onDocumentHit = mail.hits !== null && mail.hitCursor >= mail.hits.length;
    if (threadId === undefined && onDocumentHit) return;
    const target = threadId ?? mail.selectedThreadId() ?? mail.openThread?.id ?? null;
    if (target === null) return;
    // The list ordered by triage answers has its own rows (the paged cursor is hidden): the next is among them.
    const orderedBefore =
      mail.hits === null && isOrdered(useTriageStore.getState().order)
        ? orderedThreads().map((t) => t.id)
        : null;
    set({ moving: kind });
    try {
      let messages: MessageView[] | null = mail.openThread?.id === target ? mail.openThread.messages : null;
      if (!messages) {
        const reply = await bridge['mail:thread']({ threadId: target });
        if (!reply.ok) return useAppStore.getState().showError(reply.error);
        messages = reply.value.messages;
      }
      let done: MoveKind = kind;
      let send: () => Promise<boolean | null>;
      if (kind === 'archive' || kind === 'trash') {
        // A search lists hits from every folder: the conversation moves as a whole. A view leaves its folders
        // (move-targets.ts): the Inbox its own, Starred and Sent the Inbox on Archive, and all of it on Trash.
        const leaving =
          mail.hits !== null
            ? null
            : mail.folderId !== null
              ? [mail.folderId]
              : leavingFolders(mail.view, kind, mail.folders);
        const ids = moveTargets(messages, leaving);
        if (ids.length === 0) return useAppStore.getState().showError(nothingToMove[kind]);
        send = async () => {
          const reply = await bridge[channel[kind]]({ ids });
          return outcome(reply);
        };
      } else {
        const list = { folderId: mail.folderId, view: mail.view, searching: mail.hits !== null };
        const action: BulkAction = asked ?? {
          kind: spamActionFor(
            mail.folders,
            list,
            messages.map((m) => m.folderId),
          ),
        };
        done =
          action.kind === 'move'
            ? 'folder'
            : action.kind === 'notSpam' || action.kind === 'inbox'
              ? action.kind
              : 'spam';
        send = async () => {
          const reply = await bridge['mail:bulk']({
            selection: { scope: listScope(mail), threads: [target] },
            action,
          });
          return outcome(reply);
        };
      }
      set({ moving: done });
      let moved = false;
      await useUndoStore.getState().track(async () => {
        const changed = await send();
        moved = changed === true;
        if (changed === false) useAppStore.getState().showError(alreadyThere[done]);
      });
      if (!moved) return;
      // `]` and `[` open the next conversation from the list too; `e` only leaves the one it moved.
      if (toward === null && useMailStore.getState().openThread?.id !== target) return;
      if (orderedBefore === null) await useMailStore.getState().leaveMovedThread(target, toward);
      else await leaveOrderedRow(target, orderedBefore, toward ?? 'older');
    } finally {
      set({ moving: null });
    }
  }

  return {
    moving: null,
    move: (kind, threadId) => run(kind, threadId),
    archiveAndGo: (toward, threadId) => run('archive', threadId, undefined, toward),
    moveToFolder: (folderId, threadId) => run('folder', threadId, { kind: 'move', folderId }),
    moveToPlace: (place, threadId) =>
      place === 'archive' || place === 'trash' ? run(place, threadId) : run(place, threadId, { kind: place }),
  };
});
