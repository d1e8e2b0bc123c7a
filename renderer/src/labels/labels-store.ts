// The folder list's Labels section (issue 29 §4): every label with its unread and total messages and the colour
// the person picked (kept in the database, migration 0038, so a reload and the desktop app show the same).
import { create } from 'zustand';
import type { LabelColour, LabelOverview } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useRowLabelsStore } from './row-labels-store.ts';

type LabelsState = {
  labels: LabelOverview[];
  error: string | null;
  load(): Promise<void>;
  setColour(id: number, colour: LabelColour | null): Promise<void>;
};

export const useLabelsStore = create<LabelsState>()((set, get) => ({
  labels: [],
  error: null,

  async load() {
    const reply = await bridge['label:overview']({});
    if (reply.ok) {
      set({ labels: reply.value, error: null });
      // The rows' chips may have changed with the counts (a label put on or taken off, a colour).
      useRowLabelsStore.getState().clear();
    } else set({ error: reply.error.message });
  },

  async setColour(id, colour) {
    const reply = await bridge['label:setColour']({ id, colour });
    if (!reply.ok) {
      set({ error: reply.error.message });
      return;
    }
    set({ labels: get().labels.map((l) => (l.id === id ? { ...l, colour } : l)), error: null });
    useRowLabelsStore.getState().clear();
  },
}));

/** The search a label's view is: `label:NAME`, quoted when the name has a space or a quote. */
export function labelQuery(name: string): string {
  return /[\s"]/u.test(name) ? `label:"${name.replaceAll('"', '')}"` : `label:${name}`;
}
