// Choosing files to import (DESIGN §12, "Choosing files"): one action, `choose`, for both modes. The desktop app
// answers with the system's open dialog (`files:pick`); browser mode has none, so the same call opens Skimmer's own
// browser of the user's folders (files/FileBrowser.tsx over `files:browse`) and resolves when the user presses
// Import there, or cancels. The caller (the import or documents store) gets the chosen paths either way.
import { create } from 'zustand';
import type { BrowseEntry, PickPurpose, Response } from '../../../shared/contract/index.ts';
import { bridge, bridgeKind } from '../bridge.ts';
import { latestOnly } from './latest-only.ts';

type Listing = Response<'files:browse'>;
type BrowseQuery = { dir: string | undefined; filter: string; hidden: boolean };

// The contract's bound on one import's paths (mail:import, documents:import).
export const maxChosenPaths = 100;

/** Pure. Whether an entry can be chosen for this purpose: mail takes files and folders, documents files only. */
export const choosable = (entry: BrowseEntry, purpose: PickPurpose): boolean =>
  purpose === 'mail' || entry.kind === 'file';

type FilePickState = {
  // The desktop app has the system's open dialog; browser mode shows its own browser.
  systemDialog: boolean;
  // What the in-app browser is open for, or null when it is closed.
  browsing: PickPurpose | null;
  listing: Listing | null;
  loading: boolean;
  error: string | null;
  filter: string;
  hidden: boolean;
  // The entries ticked so far, by path, across folders.
  marked: Record<string, BrowseEntry>;
  // The row the keyboard is on.
  cursor: number;
  // Skimmer's sentence when the system dialog could not be shown.
  pickError: string | null;

  choose(purpose: PickPurpose, kind?: 'files' | 'folders'): Promise<string[]>;
  open(dir?: string): Promise<void>;
  setFilter(filter: string): void;
  setHidden(hidden: boolean): void;
  toggle(entry: BrowseEntry): void;
  setCursor(index: number): void;
  confirm(): void;
  cancel(): void;
};

export const useFilePickStore = create<FilePickState>()((set, get) => {
  // The caller waiting for the in-app browser's answer.
  let settle: ((paths: string[]) => void) | null = null;
  // The folder last asked for: a filter typed while it loads is for it, not for the folder still shown.
  let wanted: string | undefined;

  function finish(paths: string[]): void {
    const done = settle;
    settle = null;
    listings.cancel();
    set({ browsing: null, listing: null, marked: {}, filter: '', error: null, loading: false, cursor: 0 });
    done?.(paths);
  }

  // Typing in the filter asks for a listing per key: only the newest answer is shown.
  const listings = latestOnly(
    (query: BrowseQuery) =>
      bridge['files:browse']({
        ...(query.dir !== undefined && { dir: query.dir }),
        ...(query.filter.trim() !== '' && { filter: query.filter.trim() }),
        hidden: query.hidden,
      }),
    (_query, reply) => {
      if (get().browsing === null) return;
      if (reply.ok) {
        set({ loading: false, error: null, listing: reply.value, cursor: 0 });
        return;
      }
      // A folder refused leaves the one shown, and the filter goes on applying to that.
      wanted = get().listing?.dir;
      set({ loading: false, error: reply.error.message });
    },
  );

  function list(dir: string | undefined): Promise<void> {
    wanted = dir;
    set({ loading: true });
    return listings.request({ dir, filter: get().filter, hidden: get().hidden });
  }

  return {
    systemDialog: bridgeKind === 'desktop',
    browsing: null,
    listing: null,
    loading: false,
    error: null,
    filter: '',
    hidden: false,
    marked: {},
    cursor: 0,
    pickError: null,

    async choose(purpose, kind = 'files') {
      finish([]); // a browser still open for something else gives up its choice
      set({ pickError: null });
      const reply = await bridge['files:pick']({ purpose, kind });
      if (!reply.ok) {
        set({ pickError: reply.error.message });
        return [];
      }
      if (reply.value.available) return reply.value.paths;
      // No system dialog (browser mode): Skimmer's own browser, from the home folder.
      const chosen = new Promise<string[]>((resolve) => {
        settle = resolve;
      });
      set({ browsing: purpose, listing: null, marked: {}, filter: '', error: null, cursor: 0 });
      void list(undefined);
      return chosen;
    },

    async open(dir) {
      // A new folder starts unfiltered: the filter was for the folder before.
      set({ filter: '' });
      await list(dir);
    },

    setFilter(filter) {
      set({ filter });
      void list(wanted);
    },

    setHidden(hidden) {
      set({ hidden });
      void list(wanted);
    },

    toggle(entry) {
      const purpose = get().browsing;
      if (!purpose || !choosable(entry, purpose)) return;
      const marked = { ...get().marked };
      if (marked[entry.path]) delete marked[entry.path];
      else marked[entry.path] = entry;
      set({ marked });
    },

    setCursor(index) {
      const count = get().listing?.entries.length ?? 0;
      set({ cursor: Math.max(0, Math.min(index, count - 1)) });
    },

    confirm() {
      const paths = Object.keys(get().marked);
      if (paths.length === 0 || paths.length > maxChosenPaths) return;
      finish(paths);
    },

    cancel() {
      finish([]);
    },
  };
});
