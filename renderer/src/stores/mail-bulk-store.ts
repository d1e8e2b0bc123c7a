// The selection toolbar's actions (DESIGN §12, "Several at once"): Archive, Trash, Mark read/unread, Star,
// Unstar, Label, Move and Spam on every selected conversation in one mail:bulk request, which the main process
// applies in one transaction as one Undo entry (the Undo bar offers it) and queues for the server message by
// message. Without a selection, `!`, Label and Move act on the one conversation as the reader does
// (mail-moves-store.ts). One batch at a time.
import { create } from 'zustand';
import type { BulkAction, ThreadSelection } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';
import { useAskStore } from './ask-store.ts';
import { useMailMovesStore } from './mail-moves-store.ts';
import { useMailStore } from './mail-store.ts';
import { useSelectionStore } from './selection-store.ts';
import { listIsSpam } from './thread-selection.ts';
import { useUndoStore } from './undo-store.ts';

type BulkState = {
  working: BulkAction['kind'] | null;
  act(action: BulkAction): Promise<void>;
  // `!`: Spam (Not spam in a Spam list) for the selection, else for the one conversation.
  spam(): Promise<void>;
  // Trash (issue 29 §7), each asked first with its count: the selection, or every conversation in the Trash.
  deleteForever(count: number): Promise<void>;
  emptyTrash(count: number): Promise<void>;
};

const forever = (n: number) => `Delete ${n.toLocaleString()} conversation${n === 1 ? '' : 's'} forever?`;
const cannotUndo = 'They go from the mail server too. This cannot be undone.';

const moves = new Set<BulkAction['kind']>([
  'archive',
  'trash',
  'spam',
  'notSpam',
  'inbox',
  'move',
  'restore',
  'deleteForever',
]);

export const useMailBulkStore = create<BulkState>()((set, get) => ({
  working: null,

  async act(action) {
    const selection = useSelectionStore.getState().current();
    if (get().working !== null || selection === null) return;
    await runBatch(selection, action, (working) => set({ working }));
  },

  async spam() {
    const mail = useMailStore.getState();
    if (useSelectionStore.getState().current() === null) return useMailMovesStore.getState().move('spam');
    const notSpam = mail.hits === null && listIsSpam(mail.folders, mail.folderId, mail.view);
    await get().act({ kind: notSpam ? 'notSpam' : 'spam' });
  },

  async deleteForever(count) {
    const yes = await useAskStore
      .getState()
      .ask({ title: forever(count), detail: cannotUndo, confirm: 'Delete forever', danger: true });
    if (yes !== null) await get().act({ kind: 'deleteForever' });
  },

  async emptyTrash(count) {
    const mail = useMailStore.getState();
    if (get().working !== null || count === 0) return;
    const yes = await useAskStore.getState().ask({
      title: forever(count),
      detail: `Empty Trash takes every conversation in it. ${cannotUndo}`,
      confirm: 'Empty Trash',
      danger: true,
    });
    if (yes === null) return;
    // The whole list, whatever is selected: the Trash view, or the Trash folder shown.
    const scope = mail.folderId !== null ? { folderId: mail.folderId } : { view: mail.view };
    await runBatch({ scope }, { kind: 'deleteForever' }, (working) => set({ working }));
  },
}));

/** One batch on a selection: sent, offered for Undo, the selection cleared, the reader moved on if it left. */
export async function runBatch(
  selection: ThreadSelection,
  action: BulkAction,
  working: (kind: BulkAction['kind'] | null) => void,
): Promise<void> {
  const openId = useMailStore.getState().openThread?.id ?? null;
  working(action.kind);
  try {
    let changed = false;
    await useUndoStore.getState().track(async () => {
      const reply = await bridge['mail:bulk']({ selection, action });
      if (!reply.ok) return useAppStore.getState().showError(reply.error);
      changed = reply.value.changed > 0;
      if (!changed)
        useAppStore.getState().showError('Nothing to change: these conversations are like that already.');
    });
    if (!changed) return;
    useSelectionStore.getState().clear();
    const openWasIn =
      openId !== null && (selection.threads === undefined || selection.threads.includes(openId));
    // As after `e`: an open conversation the batch took out of the list gives way to the next one.
    if (openWasIn && moves.has(action.kind)) return await useMailStore.getState().leaveMovedThread(openId);
    await useMailStore.getState().refresh();
    // Its read flags, stars or labels changed: the reader shows them.
    if (openWasIn) await useMailStore.getState().rereadOpenThread();
  } finally {
    working(null);
  }
}
