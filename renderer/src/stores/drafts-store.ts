// Drafts (issue 4: "create_draft — a local draft the user can edit and send"): the assistant writes them, the
// user edits, sends or discards them here. The list is read when the page starts, after every chat run (the
// assistant may have written one), after an undo, when a send comes back from the outbox (reactions.ts wires
// those three) and when the dialog opens; the top bar shows the count. One draft is open
// at a time; its edits live here until saved, and opening another draft saves them first, so switching never
// loses what was typed (a save Skimmer refuses keeps the draft open with its sentence).
// Send saves first, then `draft:send` puts the message in the outbox, where it waits the undo window and Undo stops it:
// the dialog closes so that the outbox bar's Undo is in reach.
import { create } from 'zustand';
import type { DraftView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { addressProblem, type DraftForm, formOf, isEdited, saveRequest } from '../drafts/draft-form.ts';
import { announce } from './store-events.ts';

type Busy = 'saving' | 'sending' | 'discarding' | null;

type DraftsState = {
  open: boolean;
  drafts: DraftView[];
  loading: boolean;
  listError: string | null;
  openId: number | null;
  form: DraftForm | null;
  busy: Busy;
  // Skimmer's sentence about the open draft (a refused save or send).
  error: string | null;
  // "Saved" after a save, until the next edit.
  saved: boolean;
  confirmDiscard: boolean;

  load(): Promise<void>;
  openDialog(): void;
  // Opens the dialog on that draft (the outbox bar's "Back in Drafts" note).
  show(id: number): Promise<void>;
  closeDialog(): void;
  escape(): void;
  select(id: number): Promise<void>;
  edit(patch: Partial<DraftForm>): void;
  save(): Promise<boolean>;
  send(): Promise<void>;
  askDiscard(): void;
  cancelDiscard(): void;
  discard(): Promise<void>;
};

/** Whether the open draft has edits Skimmer does not have yet. */
export function hasUnsavedEdits(state: Pick<DraftsState, 'drafts' | 'openId' | 'form'>): boolean {
  const draft = state.drafts.find((d) => d.id === state.openId);
  return draft !== undefined && state.form !== null && isEdited(state.form, draft);
}

// A typed address that does not look like one; Save and Send wait until it is fixed.
export function formProblem(form: DraftForm | null): string | null {
  if (form === null) return null;
  return addressProblem(form.to) ?? addressProblem(form.cc);
}

export const useDraftsStore = create<DraftsState>()((set, get) => {
  function replace(draft: DraftView): void {
    set((state) => ({
      drafts: [draft, ...state.drafts.filter((d) => d.id !== draft.id)].sort(
        (a, b) => b.updatedAt - a.updatedAt || b.id - a.id,
      ),
    }));
  }

  function drop(id: number): void {
    set((state) => ({
      drafts: state.drafts.filter((d) => d.id !== id),
      ...(state.openId === id ? { openId: null, form: null, error: null, saved: false } : {}),
      confirmDiscard: false,
    }));
  }

  return {
    open: false,
    drafts: [],
    loading: false,
    listError: null,
    openId: null,
    form: null,
    busy: null,
    error: null,
    saved: false,
    confirmDiscard: false,

    // The open draft keeps its unsaved edits across a reload of the list; one that is gone (sent or
    // discarded elsewhere, or undone with the assistant's run) closes.
    async load() {
      set({ loading: true });
      const reply = await bridge['draft:list']({});
      if (!reply.ok) {
        set({ loading: false, listError: reply.error.message });
        return;
      }
      const still = reply.value.some((d) => d.id === get().openId);
      set({
        loading: false,
        listError: null,
        drafts: reply.value,
        ...(still ? {} : { openId: null, form: null, error: null, saved: false, confirmDiscard: false }),
      });
    },

    openDialog() {
      if (get().open) return;
      set({ open: true, listError: null });
      void get().load();
    },

    // The list is read first: the draft may have come back from the outbox a moment ago. Opening it saves the
    // edits of the draft open before, as a click on its row does.
    async show(id) {
      set({ open: true, listError: null });
      await get().load();
      await get().select(id);
    },

    // Closing keeps the open draft and its edits: they are there when the dialog opens again.
    closeDialog() {
      set({ open: false, confirmDiscard: false });
    },

    escape() {
      if (get().confirmDiscard) get().cancelDiscard();
      else get().closeDialog();
    },

    async select(id) {
      const state = get();
      if (state.openId === id || state.busy !== null) return;
      if (hasUnsavedEdits(state) && !(await get().save())) return;
      const draft = get().drafts.find((d) => d.id === id);
      if (!draft) return;
      set({ openId: id, form: formOf(draft), error: null, saved: false, confirmDiscard: false });
    },

    edit(patch) {
      set((state) => (state.form ? { form: { ...state.form, ...patch }, saved: false, error: null } : {}));
    },

    async save() {
      const { openId, form, busy } = get();
      if (openId === null || form === null || busy !== null) return false;
      const problem = formProblem(form);
      if (problem) {
        set({ error: problem });
        return false;
      }
      set({ busy: 'saving', error: null });
      const reply = await bridge['draft:save'](saveRequest(openId, form));
      if (!reply.ok) {
        set({ busy: null, error: reply.error.message });
        return false;
      }
      replace(reply.value);
      // Typing may have gone on while it saved; only the text that was sent counts as saved.
      set((state) => ({ busy: null, saved: state.form === form }));
      return true;
    },

    async send() {
      const state = get();
      const id = state.openId;
      if (id === null || state.busy !== null) return;
      if (hasUnsavedEdits(state) && !(await get().save())) return;
      set({ busy: 'sending', error: null, saved: false });
      const reply = await bridge['draft:send']({ id });
      if (!reply.ok) {
        set({ busy: null, error: reply.error.message });
        return;
      }
      set({ busy: null });
      drop(id);
      // The countdown with Undo shows in the outbox bar, which the modal dialog would keep out of reach.
      get().closeDialog();
      await announce({ type: 'draft_sent' });
    },

    askDiscard() {
      if (get().openId !== null && get().busy === null) set({ confirmDiscard: true });
    },

    cancelDiscard() {
      if (get().busy !== 'discarding') set({ confirmDiscard: false });
    },

    async discard() {
      const id = get().openId;
      if (id === null || get().busy !== null) return;
      set({ busy: 'discarding', error: null });
      const reply = await bridge['draft:discard']({ id });
      if (!reply.ok) {
        set({ busy: null, confirmDiscard: false, error: reply.error.message });
        return;
      }
      set({ busy: null });
      drop(id);
    },
  };
});
