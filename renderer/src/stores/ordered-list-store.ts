// The thread list ordered by a triage answer (issue 17, DESIGN §12): every conversation of the folder or view
// with an answer, sorted and filtered in the main process (judge:orderedThreads) and read in windows as the user
// scrolls, like the thread list (thread-pages.ts). Each window brings its rows' chips. What the order is (the
// set, the question, the filter) is the triage store's; reactions.ts reloads this list when it or the mail
// changes.
import { create } from 'zustand';
import type { ThreadSummary } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isOrdered } from '../triage/triage-order.ts';
import { useMailStore } from './mail-store.ts';
import { loadedThreads, type Pages, pageSize, pagesForRange, withPage } from './thread-pages.ts';
import { type ThreadAnswers, useTriageStore } from './triage-store.ts';

type OrderedListState = {
  total: number | null;
  pages: Pages;
  // threadId → the chips' answers, for the rows loaded here.
  answers: ReadonlyMap<number, ThreadAnswers>;
  generation: number;
  error: string | null;
  /** Reads the list again: from the top when the order, folder or view changed, else in place. */
  reload(fromTop: boolean): Promise<void>;
  showRange(first: number, last: number): void;
};

const rangeDelayMs = 60;

// The rows loaded here in list order, for the keys (j/k, e, #) that act on them.
export function orderedThreads(): ThreadSummary[] {
  return loadedThreads(useOrderedListStore.getState().pages);
}

export const useOrderedListStore = create<OrderedListState>()((set, get) => {
  const inFlight = new Set<string>();
  let visible = { first: 0, last: 0 };
  let rangeTimer: ReturnType<typeof setTimeout> | null = null;

  // What the list is of, now: null while nothing orders it.
  function request() {
    const { setId, order } = useTriageStore.getState();
    const { folderId, view } = useMailStore.getState();
    if (setId === null || !isOrdered(order)) return null;
    return { setId, folderId, view, sortBy: order.sortBy, filter: order.filter };
  }

  async function fetchPage(page: number): Promise<void> {
    const { generation } = get();
    const key = `${generation}:${page}`;
    const what = request();
    if (what === null || inFlight.has(key) || get().pages.has(page)) return;
    inFlight.add(key);
    const reply = await bridge['judge:orderedThreads']({
      ...what,
      offset: page * pageSize,
      limit: pageSize,
    });
    inFlight.delete(key);
    if (get().generation !== generation) return;
    if (!reply.ok) {
      set({ error: reply.error.message });
      return;
    }
    const nearPage = Math.floor(visible.first / pageSize);
    set((state) => {
      const pages = withPage(state.pages, page, reply.value.threads, nearPage);
      // Only rows still loaded keep their chips, so the answers held follow the pages held.
      const loaded = new Set(loadedThreads(pages).map((t) => t.id));
      const answers = new Map([...state.answers].filter(([id]) => loaded.has(id)));
      for (const found of reply.value.answers) answers.set(found.threadId, found);
      return { total: reply.value.total, pages, answers, error: null };
    });
  }

  function fetchVisible(): void {
    rangeTimer = null;
    const total = get().total ?? 0;
    if (total === 0) return;
    for (const page of pagesForRange(visible.first, Math.min(visible.last, total - 1))) void fetchPage(page);
  }

  return {
    total: null,
    pages: new Map(),
    answers: new Map(),
    generation: 0,
    error: null,

    async reload(fromTop) {
      if (fromTop) visible = { first: 0, last: 0 };
      set((state) => ({
        generation: state.generation + 1,
        pages: new Map(),
        // Another order, set, folder or view: no row keeps chips from the one before.
        answers: fromTop ? new Map() : state.answers,
        total: fromTop ? null : state.total,
        error: null,
      }));
      if (request() === null) return;
      const wanted = pagesForRange(visible.first, Math.max(visible.first, visible.last));
      await Promise.all(wanted.map((page) => fetchPage(page)));
    },

    showRange(first, last) {
      visible = { first, last };
      if (rangeTimer === null) rangeTimer = setTimeout(fetchVisible, rangeDelayMs);
    },
  };
});
