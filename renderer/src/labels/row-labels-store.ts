// The labels on the list's rows (issue 29 §4), asked for in one request per batch of rows that show at once
// (label:ofThreads), kept by conversation and dropped when the Labels section reads the counts again.
import { create } from 'zustand';
import type { LabelColour } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';

type RowLabel = { name: string; colour: LabelColour | null };

type RowLabelsState = {
  byThread: ReadonlyMap<number, RowLabel[]>;
  want(threadId: number): void;
  clear(): void;
};

const waiting = new Set<number>();
let asking = false;

export const useRowLabelsStore = create<RowLabelsState>()((set, get) => {
  // The rows of one render ask together: one request after the current task, and again for rows that came
  // while it was out.
  async function ask(): Promise<void> {
    asking = true;
    await Promise.resolve();
    while (waiting.size > 0) {
      const threads = [...waiting].slice(0, 500);
      for (const t of threads) waiting.delete(t);
      const reply = await bridge['label:ofThreads']({ threads });
      if (!reply.ok) break;
      const byThread = new Map(get().byThread);
      for (const r of reply.value) byThread.set(r.threadId, r.labels);
      set({ byThread });
    }
    waiting.clear();
    asking = false;
  }

  return {
    byThread: new Map(),

    want(threadId) {
      if (get().byThread.has(threadId)) return;
      waiting.add(threadId);
      if (!asking) void ask();
    },

    clear() {
      set({ byThread: new Map() });
    },
  };
});
