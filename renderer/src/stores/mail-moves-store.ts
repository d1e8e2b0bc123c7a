// Archive and Trash from the mail view (the reader's buttons, `e` and `#`, DESIGN §12). A move happens in
// Skimmer at once and is undoable (the Undo bar offers it); for a synced account the background sync takes
// it to the server. One move at a time, so a held-down `e` cannot fire a burst of moves.
import { create } from 'zustand';
import type { MessageView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isOrdered } from '../triage/triage-order.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';
import { leavingFolders, moveTargets } from './move-targets.ts';
import { orderedThreads, useTriageStore } from './triage-store.ts';
import { useUndoStore } from './undo-store.ts';

type MoveKind = 'archive' | 'trash';

type MovesState = {
  moving: MoveKind | null;
  // The open thread's, from the reader; the selected one's (or else the open one's), from the keyboard.
  move(kind: MoveKind, threadId?: number): Promise<void>;
};

const channel = { archive: 'mail:archive', trash: 'mail:trash' } as const;
const alreadyThere: Record<MoveKind, string> = {
  archive: 'This conversation is already in Archive.',
  trash: 'This conversation is already in Trash.',
};
const nothingToMove: Record<MoveKind, string> = {
  archive: 'Nothing to archive: this conversation has no message in this folder.',
  trash: 'Nothing to move to Trash: this conversation has no message in this folder.',
};

// Auto-advance in the ordered list: a thread still shown is read again; one gone gives way to the row after it
// that is still shown, else the one before, else an empty reader.
async function leaveOrderedRow(threadId: number, before: readonly number[]): Promise<void> {
  const mail = useMailStore.getState();
  await mail.refresh();
  const shown = new Set(orderedThreads().map((t) => t.id));
  if (shown.has(threadId)) return mail.rereadOpenThread();
  const at = before.indexOf(threadId);
  const next = [...before.slice(at + 1), ...before.slice(0, at).reverse()].find((id) => shown.has(id));
  if (next === undefined) mail.closeThread();
  else await mail.openThreadById(next);
}

export const useMailMovesStore = create<MovesState>()((set, get) => ({
  moving: null,

  async move(kind, threadId) {
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
      let moved = false;
      await useUndoStore.getState().track(async () => {
        const reply = await bridge[channel[kind]]({ ids });
        if (!reply.ok) return useAppStore.getState().showError(reply.error);
        moved = reply.value.changed > 0;
        if (!moved) useAppStore.getState().showError(alreadyThere[kind]);
      });
      if (!moved) return;
      if (useMailStore.getState().openThread?.id !== target) return;
      if (orderedBefore === null) await useMailStore.getState().leaveMovedThread(target);
      else await leaveOrderedRow(target, orderedBefore);
    } finally {
      set({ moving: null });
    }
  },
}));
