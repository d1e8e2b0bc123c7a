// Undo for changes to the mail (DESIGN §7: every write of the mail tools can be undone), the assistant's and the
// user's own (Archive, Trash). After each run the bar offers the changes that run made, as one: "Archived 2
// messages · Undo"; after the user's action, that action. Undo takes back exactly those, by id
// (`mail:undo {id}`, newest first), whatever else changed the mail since; then the mail view reloads so the
// messages show where they are again.
import { create } from 'zustand';
import type { UndoView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { newSince, stillOpen, undoSummary } from '../undo/undo-batch.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';

// Who made the changes the bar offers: the bar names the assistant, so its changes are not taken for the user's.
export type ChangedBy = 'assistant' | 'you';

type UndoState = {
  // What the bar offers to undo (newest first); empty: no bar.
  batch: UndoView[];
  by: ChangedBy;
  summary: string;
  undoing: boolean;
  // What the last Undo took back, shown until the next run or a dismissal.
  undone: string | null;

  start(): Promise<void>;
  afterRun(): Promise<void>;
  // Runs the user's own change and offers exactly it: whatever else became undoable before (opening a thread
  // marks it read, which is undoable too) is not part of it.
  track(change: () => Promise<void>): Promise<void>;
  undo(): Promise<void>;
  dismiss(): void;
};

// The contract's bound; a run rarely makes more changes than this.
const fetchLimit = 50;

export const useUndoStore = create<UndoState>()((set, get) => {
  // The newest entry seen so far: a run's changes are the entries newer than it. null until first read.
  let baselineId: number | null = null;

  async function read(): Promise<UndoView[] | null> {
    const reply = await bridge['mail:undoable']({ limit: fetchLimit });
    return reply.ok ? reply.value : null;
  }

  function remember(entries: readonly UndoView[]): void {
    baselineId = Math.max(baselineId ?? 0, entries[0]?.id ?? 0);
  }

  async function offerNew(by: ChangedBy): Promise<void> {
    const entries = await read();
    // Quietly: a Skimmer without undo (or a failed read) just shows no bar.
    if (!entries) return;
    const fresh = newSince(entries, baselineId);
    remember(entries);
    if (fresh.length === 0) {
      // A change that changed nothing keeps the bar of the one before while its changes are still undoable.
      set((state) => ({ batch: stillOpen(state.batch, entries) ? state.batch : [] }));
      return;
    }
    set({ batch: fresh, by, summary: undoSummary(fresh), undone: null });
    void useMailStore.getState().refresh();
  }

  return {
    batch: [],
    by: 'assistant',
    summary: '',
    undoing: false,
    undone: null,

    // Only notes what is already undoable, so that the first run's bar offers that run's changes alone.
    async start() {
      const entries = await read();
      if (entries) remember(entries);
    },

    async afterRun() {
      await offerNew('assistant');
    },

    async track(change) {
      const before = await read();
      if (before) remember(before);
      await change();
      await offerNew('you');
    },

    async undo() {
      const { batch, undoing } = get();
      if (undoing || batch.length === 0) return;
      set({ undoing: true });
      // Newest first, as they would have been undone by count; one refused (undone meanwhile on another page)
      // stops here and says so, keeping what was undone before it.
      const undone: UndoView[] = [];
      for (const entry of batch) {
        const reply = await bridge['mail:undo']({ id: entry.id });
        if (!reply.ok) {
          useAppStore.getState().showError(reply.error);
          break;
        }
        undone.push(...reply.value.undone);
      }
      set({ undoing: false, batch: [], undone: undone.length > 0 ? undoSummary(undone) : null });
      await useMailStore.getState().refresh();
    },

    dismiss() {
      set({ batch: [], undone: null });
    },
  };
});
