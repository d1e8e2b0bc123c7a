// Which messages of the open conversation show in full (reader/thread-open-state.ts decides); the reader's
// Expand all / Collapse all buttons and the keys `;` and `:` (keyboard/shortcuts.ts) change it, as in Gmail.
import { create } from 'zustand';
import {
  closeAll,
  closedThread,
  type OpenMessage,
  openAll,
  setOpen,
  syncOpenState,
  type ThreadOpenState,
} from '../reader/thread-open-state.ts';

type ThreadOpenStore = {
  state: ThreadOpenState;
  sync(threadId: number, messages: readonly OpenMessage[]): void;
  setOpen(id: number, open: boolean): void;
  expandAll(): void;
  collapseAll(): void;
};

export const useThreadOpenStore = create<ThreadOpenStore>((set) => ({
  state: closedThread,
  sync: (threadId, messages) => set(({ state }) => ({ state: syncOpenState(state, threadId, messages) })),
  setOpen: (id, open) => set(({ state }) => ({ state: setOpen(state, id, open) })),
  expandAll: () => set(({ state }) => ({ state: openAll(state) })),
  collapseAll: () => set(({ state }) => ({ state: closeAll(state) })),
}));
