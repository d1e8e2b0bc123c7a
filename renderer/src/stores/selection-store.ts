// The thread list's selection (DESIGN §12, "Several at once"): `x` and Ctrl/Cmd-click toggle a row, Shift-click
// takes a range, the header checkbox the loaded rows and then, on request, every conversation of the view;
// Esc clears it. Switching folder, view or search clears it too (stores/reactions.ts). While search results
// show, the same selection is of their conversations (a hit selects its conversation) and "every conversation
// of the view" is every conversation that matches the search. The rules are pure, in thread-selection.ts and
// search-selection.ts; the actions on a selection are mail-bulk-store.ts's.
import { create } from 'zustand';
import type { ThreadSelection } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';
import { hitRange, hitsHeaderCheck, hitThreads, hitToggled } from './search-selection.ts';
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
  // The same three on the search results' mail hits, by their position (search-selection.ts).
  toggleHit(index: number): void;
  extendToHit(index: number): void;
  toggleShownHits(): void;
  // "Select all conversations that match this search": the `{query}` scope without ids. How many that is
  // (`matching`) is asked of the main process, which also refuses a search past the bound of one batch.
  selectAllMatching(): Promise<void>;
  matching: number | null;
  clear(): void;
  // The request for mail:bulk, for the list on screen; null when nothing is selected.
  current(): ThreadSelection | null;
};

export const useSelectionStore = create<SelectionState>()((set, get) => ({
  ...nothingChosen,
  anchor: null,
  matching: null,

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

  toggleHit(index) {
    const hits = useMailStore.getState().hits ?? [];
    if (!hits[index]) return;
    set((state) => ({ ...hitToggled(state, hits, index), anchor: index, matching: null }));
  },

  extendToHit(index) {
    const hits = useMailStore.getState().hits ?? [];
    if (!hits[index]) return;
    set((state) => ({ ...hitRange(state, hits, state.anchor, index), anchor: index, matching: null }));
  },

  toggleShownHits() {
    const hits = useMailStore.getState().hits ?? [];
    if (hitsHeaderCheck(get(), hits) === 'all') return get().clear();
    set({ ids: new Set(hitThreads(hits)), allInView: false, matching: null });
  },

  async selectAllMatching() {
    const { hits, searchedQuery: query } = useMailStore.getState();
    if (hits === null || query === null) return;
    set({ ids: new Set(), allInView: true, matching: null });
    const reply = await bridge['mail:selectionLabels']({ selection: { scope: { query } } });
    // The user may have moved on meanwhile: another search, a hit unchecked, Esc.
    if (!get().allInView || useMailStore.getState().searchedQuery !== query) return;
    if (reply.ok) return set({ matching: reply.value.threads });
    // Too many conversations for one batch (or the search failed): the conversations shown stay selected.
    set({ ids: new Set(hitThreads(hits)), allInView: false });
    useAppStore.getState().showError(reply.error);
  },

  clear() {
    set({ ...nothingChosen, anchor: null, matching: null });
  },

  current() {
    const mail = useMailStore.getState();
    // A search's selection names the search its hits answer, not the text typed in the box since: "every
    // match" is then what the user was looking at (the main process runs that search again to resolve it).
    const query = mail.hits !== null ? mail.searchedQuery : null;
    if (mail.hits !== null && query === null) return null;
    return selectionOf(get(), scopeOf(mail.folderId, mail.view, query));
  },
}));
