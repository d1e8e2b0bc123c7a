// Mail as the user browses it: folders, the thread list (fetched in windows as it scrolls), the open thread,
// search (mail and, beside it, the imported documents), which messages may load remote images, the link waiting for the user's confirmation, and the
// changes the server refused that the user asked to try again.
import { create } from 'zustand';
import type {
  BridgeError,
  Folder,
  MailView,
  MessageView,
  Response,
  SearchHit,
} from '../../../shared/contract/index.ts';
import { bridge, bridgeKind } from '../bridge.ts';
import { classifyLink, type LinkVerdict } from '../mail/link-policy.ts';
import { useAppStore } from './app-store.ts';
import { documentQuery } from './document-query.ts';
import { type DocumentHit, useDocumentsStore } from './documents-store.ts';
import { latestOnly } from './latest-only.ts';
import { hitAt, stepCursor } from './search-hits.ts';
import {
  findThread,
  type Pages,
  pageSize,
  pagesForRange,
  patchThread,
  rowAt,
  withPage,
} from './thread-pages.ts';

type OpenThread = Response<'mail:thread'>;
// `title`: what the confirmation asks, when the link is opened for a purpose (an unsubscribe page); `beforeOpen`
// runs once the person confirmed, before the link opens, and false stops it (what it failed for, it shows).
type LinkPurpose = { title: string; beforeOpen: () => Promise<boolean> };
type PendingLink = { verdict: LinkVerdict; text: string; purpose?: LinkPurpose };

type MailState = {
  folders: Folder[];
  folderId: number | null; // null: the view (Inbox, Starred, Sent… All mail) lists
  view: MailView;
  total: number | null; // null until the first window of the list has arrived
  pages: Pages;
  listGeneration: number; // bumped whenever the list is reset or read again; late windows of an older one are dropped
  listError: string | null;
  cursor: number;
  openThread: OpenThread | null;
  threadLoadingId: number | null;
  threadError: string | null;
  focusMessageId: number | null;
  query: string;
  hits: SearchHit[] | null; // null: no search; the thread list shows
  // The query the hits answer (the box may have been edited since): a selection of "every conversation that
  // matches this search" sends this one.
  searchedQuery: string | null;
  // The same search over the imported documents, shown after the mail hits; its failure is its own.
  documentHits: DocumentHit[];
  documentSearchError: string | null;
  hitCursor: number; // over the mail hits, then the document hits (search-hits.ts)
  searching: boolean;
  searchError: string | null;
  searchFocusTick: number;
  imagesAllowed: ReadonlySet<number>;
  pendingLink: PendingLink | null;
  // Messages whose refused change was queued again; cleared when the open thread is read again.
  retried: ReadonlySet<number>;

  start(): Promise<void>;
  loadFolders(): Promise<void>;
  selectFolder(folderId: number): void;
  selectView(view: MailView): void;
  reloadList(): Promise<void>;
  reloadAfterImport(): Promise<void>;
  refresh(): Promise<void>;
  syncChanged(): Promise<void>;
  selectedThreadId(): number | null;
  closeThread(): void;
  // After a move: the conversation still listed is read again, else the one in its place opens; `toward` (from
  // `]` and `[`) opens the older or the newer one instead, whether or not one was open.
  leaveMovedThread(threadId: number, toward?: 'older' | 'newer' | null): Promise<void>;
  rereadOpenThread(): Promise<void>;
  retrySync(messageId: number): Promise<void>;
  showRange(first: number, last: number): void;
  moveCursor(delta: number): void;
  openRow(index: number): void;
  openHit(index: number): void;
  openAtCursor(): void;
  openThreadById(threadId: number, focusMessageId?: number | null): Promise<void>;
  toggleRead(): Promise<void>;
  setQuery(query: string): void;
  runSearch(): Promise<void>;
  clearSearch(): void;
  focusSearch(): void;
  allowImages(messageId: number): void;
  askToOpenLink(href: string, text: string, purpose?: LinkPurpose): void;
  confirmLink(): Promise<void>;
  dismissLink(): void;
};

const searchLimit = 200;
const documentSearchLimit = 50; // as the Documents dialog asks
const markReadLimit = 1000; // the contract's bound on ids per call
const rangeDelayMs = 40; // lets a fast scroll settle before windows are fetched

const showError = (error: BridgeError) => useAppStore.getState().showError(error);

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

// No search: the thread list shows (the state at start, and after Clear).
const noSearch: Pick<
  MailState,
  | 'query'
  | 'hits'
  | 'searchedQuery'
  | 'documentHits'
  | 'documentSearchError'
  | 'hitCursor'
  | 'searching'
  | 'searchError'
> = {
  query: '',
  hits: null,
  searchedQuery: null,
  documentHits: [],
  documentSearchError: null,
  hitCursor: 0,
  searching: false,
  searchError: null,
};

export const useMailStore = create<MailState>()((set, get) => {
  // Request bookkeeping that no component renders.
  const inFlight = new Set<string>();
  let visible = { first: 0, last: 0 };
  let rangeTimer: ReturnType<typeof setTimeout> | null = null;
  // Mail and documents at once (issue 7: documents searchable beside mail); a failure of one never hides the
  // other's hits, and each failure shows in its own group. Only the newest answer is shown (latest-only.ts), and
  // a newer search stops the mail search before it on the read thread (`replaces`), so Enter pressed again and
  // again never piles requests up, nor waits for one nobody will see.
  const searches = latestOnly(
    (query: string) =>
      Promise.all([
        bridge['mail:search']({ query, limit: searchLimit }),
        // A mail operator (`is:unread`) is a filter no document passes: then only the mail is searched.
        documentQuery(query) === null
          ? Promise.resolve({ ok: true as const, value: [] })
          : bridge['documents:search']({ query, limit: documentSearchLimit }),
      ]),
    (query, [mail, documents]) =>
      set({
        hits: mail.ok ? mail.value : [],
        searchedQuery: query,
        searchError: mail.ok ? null : mail.error.message,
        documentHits: documents.ok ? documents.value : [],
        documentSearchError: documents.ok ? null : documents.error.message,
        hitCursor: 0,
        searching: false,
      }),
    { replaces: true },
  );

  async function fetchPage(page: number): Promise<void> {
    const { listGeneration: generation, folderId, view } = get();
    const key = `${generation}:${page}`;
    if (inFlight.has(key) || get().pages.has(page)) return;
    inFlight.add(key);
    const reply = await bridge['mail:threads']({ folderId, view, offset: page * pageSize, limit: pageSize });
    inFlight.delete(key);
    if (get().listGeneration !== generation) return;
    if (!reply.ok) {
      set({ listError: reply.error.message });
      return;
    }
    const nearPage = Math.floor(visible.first / pageSize);
    set((state) => ({
      total: reply.value.total,
      pages: withPage(state.pages, page, reply.value.threads, nearPage),
      listError: null,
    }));
  }

  function fetchVisible(): void {
    rangeTimer = null;
    const total = get().total ?? 0;
    if (total === 0) return;
    const last = Math.min(visible.last, total - 1);
    for (const page of pagesForRange(visible.first, last)) void fetchPage(page);
  }

  async function markRead(threadId: number, messages: MessageView[], read: boolean): Promise<void> {
    const ids = messages.map((message) => message.id).slice(0, markReadLimit);
    if (ids.length === 0) return;
    const reply = await bridge['mail:markRead']({ ids, read });
    if (!reply.ok) return showError(reply.error);
    const changed = new Set(ids);
    set((state) => ({
      pages: patchThread(state.pages, threadId, { unread: read ? 0 : ids.length }),
      openThread:
        state.openThread?.id === threadId
          ? {
              ...state.openThread,
              messages: state.openThread.messages.map((message) =>
                changed.has(message.id) ? { ...message, unread: !read } : message,
              ),
            }
          : state.openThread,
    }));
    await get().loadFolders();
  }

  function selectedThreadId(): number | null {
    const { hits, hitCursor, pages, cursor } = get();
    if (hits) return hits[hitCursor]?.threadId ?? null;
    return rowAt(pages, cursor)?.id ?? null;
  }

  // Reads the windows on screen again and puts them in place of the list's (the others are read when scrolled
  // to). `follow`: a thread the cursor stays on if it is still listed. False when nothing was put in place (a
  // read failed, or the list had nothing to keep): the caller reads the list from the start instead.
  async function rereadInPlace(follow: number | null): Promise<boolean> {
    const { folderId, view, listGeneration: generation, total } = get();
    if (total === null || total === 0) {
      await get().reloadList();
      return true;
    }
    const wanted = pagesForRange(visible.first, Math.max(visible.first, visible.last));
    const replies = await Promise.all(
      wanted.map((page) =>
        bridge['mail:threads']({ folderId, view, offset: page * pageSize, limit: pageSize }),
      ),
    );
    // The user went elsewhere meanwhile: that view's own reads are what count.
    if (get().listGeneration !== generation) return true;
    let pages: Pages = new Map();
    let fresh = total;
    for (const [i, reply] of replies.entries()) {
      if (!reply.ok) return false;
      fresh = reply.value.total;
      pages = withPage(pages, wanted[i] ?? 0, reply.value.threads, wanted[0] ?? 0);
    }
    const moved = follow === null ? null : indexOf(pages, follow);
    // A new generation: a window read before this one is dropped when it comes, and whatever follows the list
    // (the list ordered by an answer, reactions.ts) reads itself again.
    set((state) => ({
      listGeneration: state.listGeneration + 1,
      pages,
      total: fresh,
      listError: null,
      cursor: clamp(moved ?? state.cursor, 0, Math.max(0, fresh - 1)),
    }));
    return true;
  }

  // The row a thread sits at among the loaded windows, if it is loaded.
  function indexOf(pages: Pages, threadId: number): number | null {
    for (const [page, rows] of pages) {
      const at = rows.findIndex((row) => row.id === threadId);
      if (at !== -1) return page * pageSize + at;
    }
    return null;
  }

  return {
    folders: [],
    folderId: null,
    view: 'inbox',
    total: null,
    pages: new Map(),
    listGeneration: 0,
    listError: null,
    cursor: 0,
    openThread: null,
    threadLoadingId: null,
    threadError: null,
    focusMessageId: null,
    ...noSearch,
    searchFocusTick: 0,
    imagesAllowed: new Set(),
    pendingLink: null,
    retried: new Set(),

    async start() {
      await Promise.all([get().loadFolders(), get().reloadList()]);
    },

    async loadFolders() {
      const reply = await bridge['mail:folders']({});
      if (reply.ok) set({ folders: reply.value });
      else showError(reply.error);
    },

    // Switching folders or views closes the reader: it never shows a thread from elsewhere.
    selectFolder(folderId) {
      if (get().hits !== null) get().clearSearch();
      get().closeThread();
      set({ folderId });
      void get().reloadList();
    },

    selectView(view) {
      if (get().hits !== null) get().clearSearch();
      get().closeThread();
      set({ folderId: null, view });
      void get().reloadList();
    },

    async reloadList() {
      visible = { first: 0, last: 0 };
      set((state) => ({
        listGeneration: state.listGeneration + 1,
        pages: new Map(),
        total: null,
        listError: null,
        cursor: 0,
      }));
      await fetchPage(0);
    },

    async reloadAfterImport() {
      await Promise.all([get().loadFolders(), get().reloadList()]);
    },

    // The mail changed under the view (an action on a selection, the assistant archived something, or an Undo
    // put it back): folders, the list and any search are read again, keeping the user's place as far as it
    // still exists. The rows on screen are replaced in place (`rereadInPlace`), as Gmail and Thunderbird do, so
    // the list does not empty and fill again and the scroll position stays; the cursor keeps its row number,
    // so what moved up under it after an archive is the next conversation (auto-advance).
    async refresh() {
      await get().loadFolders();
      const { folderId, folders } = get();
      // Undo can remove a folder that only the undone change had created (Archive, Trash).
      if (folderId !== null && !folders.some((folder) => folder.id === folderId)) {
        set({ folderId: null });
        await get().reloadList();
      } else if (!(await rereadInPlace(null))) await get().reloadList();
      if (get().hits !== null && get().query.trim() !== '') await get().runSearch();
    },

    // The background sync changed the mail (new mail, or a change from another client): folders, the windows on
    // screen and the open thread are read again in place, and the selection follows its thread when new mail
    // pushes it down. A read that fails leaves the list as it was; the next change tries again.
    async syncChanged() {
      const selected = get().hits === null ? selectedThreadId() : null;
      await get().loadFolders();
      const { folderId, folders } = get();
      if (folderId !== null && !folders.some((folder) => folder.id === folderId)) {
        set({ folderId: null });
        await get().reloadList();
      } else await rereadInPlace(selected);
      await get().rereadOpenThread();
    },

    selectedThreadId,

    closeThread() {
      set({ openThread: null, threadLoadingId: null, focusMessageId: null });
    },

    // After Archive or Trash of the open thread (mail-moves-store.ts): when it has left the list (a folder, the
    // Inbox; Trash from All mail) the next thread, now under the cursor, opens, as Gmail's auto-advance does.
    // Still listed (archived in All mail, or a search) the reader shows where its messages are now.
    async leaveMovedThread(threadId, toward = null) {
      await get().refresh();
      const { hits, hitCursor, cursor, openThread } = get();
      if (toward === null && openThread?.id !== threadId) return;
      const step = toward === 'older' ? 1 : -1;
      // A search keeps listing what it found wherever it moved: `]` and `[` step to the next hit.
      if (hits !== null) {
        if (toward === null) return get().rereadOpenThread();
        const index = hitCursor + step;
        if (index >= 0 && index < hits.length) get().openHit(index);
        return;
      }
      await fetchPage(Math.floor(cursor / pageSize));
      const row = rowAt(get().pages, cursor);
      const stayed = row?.id === threadId;
      if (toward === null) {
        if (stayed) return get().rereadOpenThread();
        if (row) get().openRow(cursor);
        else get().closeThread();
        return;
      }
      // The list is newest first: the older conversation is the row after the moved one, which took its place
      // when the move took it off the list.
      const index = stayed || toward === 'newer' ? cursor + step : cursor;
      if (index < 0) return get().closeThread();
      await fetchPage(Math.floor(index / pageSize));
      if (rowAt(get().pages, index)) get().openRow(index);
      else get().closeThread();
    },

    // Reads the open thread again without marking anything read: a sync may have changed or refused something.
    async rereadOpenThread() {
      const open = get().openThread;
      if (!open || get().threadLoadingId !== null) return;
      const reply = await bridge['mail:thread']({ threadId: open.id });
      if (get().openThread?.id !== open.id || get().threadLoadingId !== null) return;
      if (reply.ok) set({ openThread: reply.value, retried: new Set() });
      else if (reply.error.code === 'not_found') set({ openThread: null });
    },

    // "Retry" on a change the server refused: queued again; the background sync sends it with its next round.
    async retrySync(messageId) {
      const reply = await bridge['mail:retrySync']({ id: messageId });
      if (!reply.ok) return showError(reply.error);
      set((state) => ({ retried: new Set(state.retried).add(messageId) }));
    },

    showRange(first, last) {
      visible = { first, last };
      if (rangeTimer === null) rangeTimer = setTimeout(fetchVisible, rangeDelayMs);
    },

    moveCursor(delta) {
      const { hits, documentHits, hitCursor, cursor, total } = get();
      if (hits) {
        set({ hitCursor: stepCursor(hitCursor, delta, hits.length + documentHits.length) });
      } else if (total) {
        set({ cursor: clamp(cursor + delta, 0, total - 1) });
      }
    },

    openRow(index) {
      set({ cursor: index });
      const row = rowAt(get().pages, index);
      if (row) void get().openThreadById(row.id);
    },

    // A mail hit opens its thread at the message; a document hit opens the document's page view at the
    // matching part, marked (documents/DocumentPage.tsx, the view a citation opens).
    openHit(index) {
      const picked = hitAt(get().hits ?? [], get().documentHits, index);
      set({ hitCursor: index });
      if (picked?.kind === 'mail') void get().openThreadById(picked.hit.threadId, picked.hit.id);
      else if (picked?.kind === 'document')
        void useDocumentsStore.getState().openPage(picked.hit.documentId, picked.hit.id);
    },

    openAtCursor() {
      const { hits, hitCursor, cursor } = get();
      if (hits) get().openHit(hitCursor);
      else get().openRow(cursor);
    },

    // Opening a thread marks its messages read, as a mail client does.
    async openThreadById(threadId, focusMessageId = null) {
      set({ threadLoadingId: threadId, threadError: null, focusMessageId });
      const reply = await bridge['mail:thread']({ threadId });
      if (get().threadLoadingId !== threadId) return; // another thread was opened meanwhile
      if (!reply.ok) {
        set({ threadLoadingId: null, threadError: reply.error.message });
        return;
      }
      set({ openThread: reply.value, threadLoadingId: null });
      const unread = reply.value.messages.filter((message) => message.unread);
      if (unread.length > 0) await markRead(threadId, unread, true);
    },

    // `u`: an unread thread becomes read, a read one unread, all its messages at once.
    async toggleRead() {
      const threadId = selectedThreadId();
      if (threadId === null) return;
      const open = get().openThread;
      let messages = open?.id === threadId ? open.messages : null;
      if (!messages) {
        const reply = await bridge['mail:thread']({ threadId });
        if (!reply.ok) return showError(reply.error);
        messages = reply.value.messages;
      }
      const row = findThread(get().pages, threadId);
      const unread = row ? row.unread > 0 : messages.some((message) => message.unread);
      await markRead(threadId, messages, unread);
    },

    setQuery(query) {
      set({ query });
    },

    async runSearch() {
      const query = get().query.trim();
      if (query === '') return get().clearSearch();
      set({ searching: true, searchError: null, documentSearchError: null });
      await searches.request(query);
    },

    clearSearch() {
      searches.cancel();
      set(noSearch);
    },

    focusSearch() {
      set((state) => ({ searchFocusTick: state.searchFocusTick + 1 }));
    },

    allowImages(messageId) {
      set((state) => ({ imagesAllowed: new Set(state.imagesAllowed).add(messageId) }));
    },

    askToOpenLink(href, text, purpose) {
      set({ pendingLink: { verdict: classifyLink(href, text), text, ...(purpose && { purpose }) } });
    },

    // Called only from the confirmation, after the user has seen the real URL.
    async confirmLink() {
      const link = get().pendingLink;
      set({ pendingLink: null });
      if (!link?.verdict.openable) return;
      if (link.purpose && !(await link.purpose.beforeOpen())) return;
      const url = link.verdict.url;
      const reply = await bridge['link:open']({ url });
      if (!reply.ok) return showError(reply.error);
      // In browser mode Skimmer has no system browser to hand the link to; the page opens it itself, without
      // an opener or referrer. The desktop app never gets here: there, opened:false means it refused.
      const mode = useAppStore.getState().info?.mode ?? bridgeKind;
      if (!reply.value.opened && mode === 'browser') window.open(url, '_blank', 'noopener,noreferrer');
    },

    dismissLink() {
      set({ pendingLink: null });
    },
  };
});
