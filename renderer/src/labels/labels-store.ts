// The folder list's Labels section (issue 29 §4): every label with its unread and total messages and the colour
// the person picked (kept in the database, migration 0038, so a reload and the desktop app show the same).
import { create } from 'zustand';
import type { LabelColour, LabelOverview } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useAskStore } from '../stores/ask-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useUndoStore } from '../stores/undo-store.ts';
import { useRowLabelsStore } from './row-labels-store.ts';

type LabelsState = {
  labels: LabelOverview[];
  error: string | null;
  load(): Promise<void>;
  setColour(id: number, colour: LabelColour | null): Promise<void>;
  // Each asks first (a name, or a yes with the number of conversations), then offers the Undo bar.
  rename(label: LabelOverview): Promise<void>;
  remove(label: LabelOverview): Promise<void>;
};

const conversations = (n: number) => `${n.toLocaleString()} conversation${n === 1 ? '' : 's'}`;

// After a rename or a delete: the list, the chips and the counts again; a label's view follows its new name.
async function changed(from: string, to: string | null): Promise<void> {
  const mail = useMailStore.getState();
  const showing = mail.hits !== null && mail.query === labelQuery(from);
  await useLabelsStore.getState().load();
  if (showing && to !== null) {
    mail.setQuery(labelQuery(to));
    await mail.runSearch();
  } else await mail.refresh();
}

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

  async rename(label) {
    const name = await useAskStore.getState().ask({
      title: `Rename the label ${label.name}`,
      detail: 'On the mail server too. A name another label has puts the two together.',
      confirm: 'Rename',
      name: { label: 'New name', value: label.name, maxLength: 64 },
    });
    if (name === null || name.trim() === label.name) return;
    let to: string | null = null;
    await useUndoStore.getState().track(async () => {
      const reply = await bridge['label:rename']({ id: label.id, name });
      if (!reply.ok) return useAppStore.getState().showError(reply.error);
      to = name.trim();
    });
    if (to !== null) await changed(label.name, to);
  },

  async remove(label) {
    const yes = await useAskStore.getState().ask({
      title: `Delete the label ${label.name}?`,
      detail: `It comes off ${conversations(label.threads)}, on the mail server too; the mail itself stays. You can undo this.`,
      confirm: 'Delete label',
      danger: true,
    });
    if (yes === null) return;
    let done = false;
    await useUndoStore.getState().track(async () => {
      const reply = await bridge['label:delete']({ id: label.id });
      if (!reply.ok) return useAppStore.getState().showError(reply.error);
      done = true;
    });
    if (done) await changed(label.name, null);
  },
}));

/** The search a label's view is: `label:NAME`, quoted when the name has a space or a quote. */
export function labelQuery(name: string): string {
  return /[\s"]/u.test(name) ? `label:"${name.replaceAll('"', '')}"` : `label:${name}`;
}
