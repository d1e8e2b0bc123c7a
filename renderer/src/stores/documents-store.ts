// Documents beside mail (issue 7): files the user imports (.txt, .md, .pdf, .docx) and searches here. The
// list is read when the dialog opens and after every import; an import's result stays until the next one, so
// the user sees which files came in, which were there already and why a file could not be read. Documents
// checked in the list can be asked about (the answer lives in the summary store); a document citation opens
// the page view here (`documents:read`), scrolled to the cited part.
import { create } from 'zustand';
import type { Response } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useFilePickStore } from './file-pick-store.ts';

type ImportResult = Response<'documents:import'>;
type DocumentView = Response<'documents:list'>[number];
export type DocumentHit = Response<'documents:search'>[number];
type DocumentPage = Response<'documents:read'>;
// The page a citation opened: the cited part, the document once read, or Skimmer's sentence why not.
type PageState = { documentId: number; chunkId: string; view: DocumentPage | null; error: string | null };

type DocumentsState = {
  open: boolean;
  pathsText: string;
  importing: boolean;
  result: ImportResult | null;
  // Skimmer's sentence when the import as a whole was refused (each file's own failure is in `result`).
  importError: string | null;
  documents: DocumentView[];
  listError: string | null;
  query: string;
  searching: boolean;
  // null until a search ran, so "no match" is told apart from "not searched yet".
  hits: DocumentHit[] | null;
  searchError: string | null;
  // Documents checked for "Ask about these documents", and the question.
  checked: number[];
  question: string;
  page: PageState | null;

  openDialog(): void;
  closeDialog(): void;
  load(): Promise<void>;
  setPathsText(text: string): void;
  importPaths(): Promise<void>;
  // Files chosen with the system dialog or Skimmer's own browser (file-pick-store.ts), imported at once.
  chooseAndImport(): Promise<void>;
  setQuery(query: string): void;
  search(): Promise<void>;
  toggleChecked(documentId: number): void;
  setQuestion(question: string): void;
  openPage(documentId: number, chunkId: string): Promise<void>;
  closePage(): void;
};

// One path a line; blank lines and surrounding spaces are the textarea's, not the user's paths.
function pathsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export const useDocumentsStore = create<DocumentsState>()((set, get) => ({
  open: false,
  pathsText: '',
  importing: false,
  result: null,
  importError: null,
  documents: [],
  listError: null,
  query: '',
  searching: false,
  hits: null,
  searchError: null,
  checked: [],
  question: '',
  page: null,

  openDialog() {
    if (get().open) return;
    set({ open: true, listError: null });
    void get().load();
  },

  closeDialog() {
    if (useFilePickStore.getState().browsing === 'documents') useFilePickStore.getState().cancel();
    set({ open: false });
  },

  async load() {
    const reply = await bridge['documents:list']({});
    if (!reply.ok) set({ listError: reply.error.message });
    else set({ listError: null, documents: reply.value });
  },

  setPathsText(text) {
    set({ pathsText: text, importError: null });
  },

  async importPaths() {
    if (get().importing) return;
    const paths = pathsOf(get().pathsText);
    if (paths.length === 0) {
      set({ importError: 'Type the path of a file to import, one per line.' });
      return;
    }
    if (await importFiles(paths)) set({ pathsText: '' });
  },

  async chooseAndImport() {
    if (get().importing) return;
    set({ importError: null });
    const paths = await useFilePickStore.getState().choose('documents');
    if (paths.length > 0 && get().open) await importFiles(paths);
  },

  setQuery(query) {
    set({ query });
  },

  async search() {
    const query = get().query.trim();
    if (query === '' || get().searching) return;
    set({ searching: true, searchError: null });
    const reply = await bridge['documents:search']({ query, limit: 50 });
    if (!reply.ok) set({ searching: false, searchError: reply.error.message, hits: null });
    else set({ searching: false, hits: reply.value });
  },

  toggleChecked(documentId) {
    const { checked } = get();
    set({
      checked: checked.includes(documentId)
        ? checked.filter((id) => id !== documentId)
        : [...checked, documentId].slice(0, 20), // the contract's bound
    });
  },

  setQuestion(question) {
    set({ question: question.slice(0, 2000) });
  },

  async openPage(documentId, chunkId) {
    set({ page: { documentId, chunkId, view: null, error: null } });
    const reply = await bridge['documents:read']({ documentId, chunkId });
    // Another chip may have been pressed meanwhile: only the latest page is shown.
    const page = get().page;
    if (page?.documentId !== documentId || page.chunkId !== chunkId) return;
    set({
      page: reply.ok ? { ...page, view: reply.value } : { ...page, error: reply.error.message },
    });
  },

  closePage() {
    set({ page: null });
  },
}));

// Whether the import was answered (each file's own failure is then in the result), for typed and chosen paths alike.
async function importFiles(paths: string[]): Promise<boolean> {
  const { setState: set, getState: get } = useDocumentsStore;
  set({ importing: true, importError: null, result: null });
  const reply = await bridge['documents:import']({ paths });
  if (!reply.ok) {
    set({ importing: false, importError: reply.error.message });
    return false;
  }
  set({ importing: false, result: reply.value });
  await get().load();
  return true;
}
