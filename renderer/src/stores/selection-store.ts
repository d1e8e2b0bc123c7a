// The thread list's selection (DESIGN §12, "Several at once"): `x` and Ctrl/Cmd-click toggle a row, Shift-click
// takes a range, the header checkbox the loaded rows and then, on request, every conversation of the view;
// Esc clears it. Switching folder, view or search clears it too (stores/reactions.ts). The rules are pure, in
// thread-selection.ts; the actions on a selection are mail-bulk-store.ts's.
import { create } from 'zustand';
import type { ThreadSelection } from '../../../shared/contract/index.ts';
import { useMailStore } from './mail-store.ts';
import { loadedThreads, rowAt } from './thread-pages.ts';
import {
  type Chosen,
  headerCheck,
  nothingChosen,
  scopeOf,
  selectionOf,
  toggled,
  withRange,
} from './thread-selection.ts';

type SelectionState = Chosen & {
  // The row last toggled, where a Shift-click's range starts.
  anchor: number | null;
  // A row's checkbox, `x` (the cursor's row) and Ctrl/Cmd-click.
  toggle(index: number): void;
  // Shift-click.
  extendTo(index: number): void;
  // The header checkbox: every loaded row, or none when they all are.
  toggleLoaded(): void;
  selectAllInView(): void;
  clear(): void;
  // The request for mail:bulk, for the list on screen; null when nothing is selected.
  current(): ThreadSelection | null;
};

export const useSelectionStore = create<SelectionState>()((set, get) => ({
  ...nothingChosen,
  anchor: null,

  toggle(index) {
    const { pages } = useMailStore.getState();
    const row = rowAt(pages, index);
    if (!row) return;
    set((state) => ({ ...toggled(state, pages, row.id), anchor: index }));
  },

  extendTo(index) {
    const { pages } = useMailStore.getState();
    set((state) => ({ ...withRange(state, pages, state.anchor, index), anchor: index }));
  },

  toggleLoaded() {
    const { pages } = useMailStore.getState();
    if (headerCheck(get(), pages) === 'all') return get().clear();
    set({ ids: new Set(loadedThreads(pages).map((t) => t.id)), allInView: false });
  },

  selectAllInView() {
    set({ ids: new Set(), allInView: true });
  },

  clear() {
    set({ ...nothingChosen, anchor: null });
  },

  current() {
    const mail = useMailStore.getState();
    return selectionOf(get(), scopeOf(mail.folderId, mail.view, null));
  },
}));
