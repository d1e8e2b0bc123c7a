// Drafts (issue 4: "create_draft — a local draft the user can edit and send"; issue 16: the user's own): the
// list the top bar counts and the Drafts dialog shows. A draft is written in the composer (compose-store.ts);
// `openDraft` is the one way to open one there, from the dialog, the outbox bar's "Open draft" or the folder
// list. The list is read when the page starts, after every chat run (the assistant may have written one),
// after an undo, when a send comes back from the outbox, when the composer makes, sends or closes a draft
// (reactions.ts wires those) and when the dialog opens.
import { create } from 'zustand';
import type { DraftView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useComposeStore } from './compose-store.ts';

type DraftsState = {
  open: boolean;
  drafts: DraftView[];
  loading: boolean;
  listError: string | null;

  load(): Promise<void>;
  openDialog(): void;
  closeDialog(): void;
  // Opens the draft in the composer, where it was left; the dialog closes so the composer is in reach.
  openDraft(id: number): Promise<void>;
};

export const useDraftsStore = create<DraftsState>()((set, get) => ({
  open: false,
  drafts: [],
  loading: false,
  listError: null,

  async load() {
    set({ loading: true });
    const reply = await bridge['draft:list']({});
    if (!reply.ok) {
      set({ loading: false, listError: reply.error.message });
      return;
    }
    set({ loading: false, listError: null, drafts: reply.value });
  },

  openDialog() {
    if (get().open) return;
    set({ open: true, listError: null });
    void get().load();
  },

  closeDialog() {
    set({ open: false });
  },

  async openDraft(id) {
    set({ open: false });
    await useComposeStore.getState().openDraft(id);
  },
}));
