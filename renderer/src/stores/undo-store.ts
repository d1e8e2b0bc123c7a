// Undo for changes to the mail (DESIGN §7: every write of the mail tools can be undone), the assistant's and the
// user's own (Archive, Trash). After each run the bar offers the changes that run made, as one: "Archived 2
// messages · Undo"; after the user's action, that action. Undo takes back exactly those, by id
// (`mail:undo {id}`, newest first), whatever else changed the mail since; then the mail view reloads so the
// messages show where they are again. The bar leaves after its window (undo/bar-timer.ts, paused while the
// pointer or the focus is on it); `z` (keyboard/shortcuts.ts) still takes the change back after that, as long
// as the main process still can (an entry a later change made stale is refused there, with a sentence).
import { create } from 'zustand';
import type { UndoView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { type BarTimer, barTimer, type Hold } from '../undo/bar-timer.ts';
import { newSince, stillOpen, undoSummary } from '../undo/undo-batch.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';

// Who made the changes the bar offers, as the bar names them before the summary ("The assistant", an outside
// agent's name as agent-watch.ts bounded it); null for the user's own, which need no name. Shown as text.
type ChangedBy = string | null;

/** How the bar names the in-app assistant's changes. */
const assistantName = 'The assistant';

type UndoState = {
  // What the bar offers to undo (newest first), and `z` after the bar has gone; empty: nothing to undo.
  batch: UndoView[];
  // The bar is on screen: it leaves by itself after its window (undo/bar-timer.ts) unless held.
  shown: boolean;
  by: ChangedBy;
  summary: string;
  undoing: boolean;
  // What the last Undo took back, shown until the next run or a dismissal.
  undone: string | null;

  start(): Promise<void>;
  // After a run of the assistant, or an outside agent's change (`by` its name).
  afterRun(by?: string): Promise<void>;
  // Runs the user's own change and offers exactly it: whatever else became undoable before (opening a thread
  // marks it read, which is undoable too) is not part of it.
  track(change: () => Promise<void>): Promise<void>;
  undo(): Promise<void>;
  dismiss(): void;
  // The pointer is over the bar or the focus in it: its time waits (undo/bar-timer.ts).
  hold(why: Hold, held: boolean): void;
};

// The contract's bound; a run rarely makes more changes than this.
const fetchLimit = 50;

export const useUndoStore = create<UndoState>()((set, get) => {
  // The newest entry seen so far: a run's changes are the entries newer than it. null until first read.
  let baselineId: number | null = null;
  let timer: BarTimer | null = null;

  // Shows the bar for its window; what it offers stays undoable by `z` after it leaves.
  function showBar(): void {
    timer?.cancel();
    timer = barTimer(() => {
      timer = null;
      set({ shown: false, undone: null });
    });
  }

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
      set((state) => {
        const open = stillOpen(state.batch, entries);
        return { batch: open ? state.batch : [], shown: open && state.shown };
      });
      return;
    }
    set({ batch: fresh, shown: true, by, summary: undoSummary(fresh), undone: null });
    showBar();
    void useMailStore.getState().refresh();
  }

  return {
    batch: [],
    shown: false,
    by: assistantName,
    summary: '',
    undoing: false,
    undone: null,

    // Only notes what is already undoable, so that the first run's bar offers that run's changes alone.
    async start() {
      const entries = await read();
      if (entries) remember(entries);
    },

    async afterRun(by = assistantName) {
      await offerNew(by);
    },

    async track(change) {
      const before = await read();
      if (before) remember(before);
      await change();
      await offerNew(null);
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
      const said = undone.length > 0 ? undoSummary(undone) : null;
      set({ undoing: false, batch: [], shown: said !== null, undone: said });
      // "Undone: …" leaves as the bar did, `z` pressed after the bar left included.
      if (said !== null) showBar();
      else timer?.cancel();
      await useMailStore.getState().refresh();
    },

    dismiss() {
      timer?.cancel();
      timer = null;
      set({ batch: [], shown: false, undone: null });
    },

    hold(why, held) {
      if (held) timer?.hold(why);
      else timer?.release(why);
    },
  };
});
