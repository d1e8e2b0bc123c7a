// The Label… (`l`) and Move… (`v`) pickers (DESIGN §12): they act on the selection, else on one conversation
// (the one the reader's button names, or the cursor's, or the open one). Labels show all/some/none for what is
// picked and apply as one undoable change; a label typed that does not exist is created. A place (Inbox, Archive,
// Spam, Trash) or a folder picked moves there at once. While a picker is open the mail keys stand aside (keyboard/shortcuts.ts).
import { create } from 'zustand';
import type { SelectionLabel, ThreadSelection } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { changesOf, clicked } from './label-picks.ts';
import { runBatch } from './mail-bulk-store.ts';
import { type MovePlace, useMailMovesStore } from './mail-moves-store.ts';
import { useMailStore } from './mail-store.ts';
import { useSelectionStore } from './selection-store.ts';
import { scopeOf } from './thread-selection.ts';

type PickerState = {
  open: 'label' | 'move' | null;
  // What the picker acts on; `single` when it is one conversation rather than the selection.
  target: ThreadSelection | null;
  single: number | null;
  filter: string;
  threads: number;
  labels: SelectionLabel[] | null; // null while they load
  wanted: ReadonlyMap<string, boolean>;
  error: string | null;
  applying: boolean;

  openLabels(threadId?: number): Promise<void>;
  openMove(threadId?: number): void;
  close(): void;
  setFilter(text: string): void;
  toggleLabel(name: string): void;
  applyLabels(create?: string): Promise<void>;
  pickFolder(folderId: number): Promise<void>;
  pickPlace(place: MovePlace): Promise<void>;
};

const closed = {
  open: null,
  target: null,
  single: null,
  filter: '',
  threads: 0,
  labels: null,
  wanted: new Map(),
  error: null,
  applying: false,
} as const;

// The selection, else the one conversation named, under the cursor or open.
function pickTarget(threadId?: number): { target: ThreadSelection; single: number | null } | null {
  const selection = useSelectionStore.getState().current();
  if (threadId === undefined && selection !== null) return { target: selection, single: null };
  const mail = useMailStore.getState();
  const onDocumentHit = mail.hits !== null && mail.hitCursor >= mail.hits.length;
  if (threadId === undefined && onDocumentHit) return null;
  const single = threadId ?? mail.selectedThreadId() ?? mail.openThread?.id ?? null;
  if (single === null) return null;
  const scope = mail.hits !== null ? { view: 'all' as const } : scopeOf(mail.folderId, mail.view, null);
  return { target: { scope, threads: [single] }, single };
}

export const usePickerStore = create<PickerState>()((set, get) => ({
  ...closed,

  async openLabels(threadId) {
    const picked = pickTarget(threadId);
    if (!picked) return;
    set({ ...closed, open: 'label', ...picked });
    const reply = await bridge['mail:selectionLabels']({ selection: picked.target });
    if (get().target !== picked.target) return;
    if (reply.ok) set({ labels: reply.value.labels, threads: reply.value.threads });
    else set({ labels: [], error: reply.error.message });
  },

  openMove(threadId) {
    const picked = pickTarget(threadId);
    if (!picked) return;
    set({ ...closed, open: 'move', ...picked });
  },

  close() {
    set(closed);
  },

  setFilter(text) {
    set({ filter: text });
  },

  toggleLabel(name) {
    const { labels, threads, wanted } = get();
    const label = labels?.find((l) => l.name === name);
    if (label) set({ wanted: clicked(label, threads, wanted) });
  },

  async applyLabels(create) {
    const { target, labels, threads, wanted, applying } = get();
    if (!target || applying) return;
    const change = changesOf(labels ?? [], threads, wanted, create ?? null);
    if (change.add.length + change.remove.length === 0) return get().close();
    set({ applying: true });
    await runBatch(target, { kind: 'label', ...change }, () => {});
    get().close();
  },

  async pickFolder(folderId) {
    const { target, single, applying } = get();
    if (!target || applying) return;
    set({ applying: true });
    // One conversation moves as `e` does, auto-advance included; a selection as a batch.
    if (single !== null) await useMailMovesStore.getState().moveToFolder(folderId, single);
    else await runBatch(target, { kind: 'move', folderId }, () => {});
    get().close();
  },

  async pickPlace(place) {
    const { target, single, applying } = get();
    if (!target || applying) return;
    set({ applying: true });
    if (single !== null) await useMailMovesStore.getState().moveToPlace(place, single);
    else await runBatch(target, { kind: place }, () => {});
    get().close();
  },
}));
