// Your addresses (Settings → Your addresses, issue 16; DESIGN §11): each account's own, which stays while the
// account does, and those the user adds for imported mail, each with a name and a signature. They decide From,
// who reply all leaves out, and the signature above a reply's quote. `identity:add` adds an address or
// changes one (a field left out stays), so adding and editing are one call; removing asks first.
import { create } from 'zustand';
import type { Response } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';

export type Identity = Response<'identity:list'>[number];
type Editing = { address: string; name: string; signature: string };

type IdentitiesState = {
  open: boolean;
  identities: Identity[];
  loading: boolean;
  listError: string | null;
  // The "Add an address" form.
  draft: { address: string; name: string };
  adding: boolean;
  addError: string | null;
  added: string | null;
  // The row whose name and signature are being edited.
  editing: Editing | null;
  savingEdit: boolean;
  editError: string | null;
  confirmRemove: string | null;
  removing: boolean;
  rowErrors: Record<string, string>;

  openDialog(): void;
  closeDialog(): void;
  escape(): void;
  load(): Promise<void>;
  editDraft(patch: Partial<IdentitiesState['draft']>): void;
  add(): Promise<void>;
  startEdit(address: string): void;
  editField(patch: Partial<Omit<Editing, 'address'>>): void;
  cancelEdit(): void;
  saveEdit(): Promise<void>;
  askRemove(address: string): void;
  cancelRemove(): void;
  remove(): Promise<void>;
};

const emptyDraft = { address: '', name: '' };

// Blank clears a name or signature (the contract's rule): what the user emptied is gone, not kept.
const orNull = (text: string) => (text.trim() === '' ? null : text);

export const useIdentitiesStore = create<IdentitiesState>()((set, get) => ({
  open: false,
  identities: [],
  loading: false,
  listError: null,
  draft: emptyDraft,
  adding: false,
  addError: null,
  added: null,
  editing: null,
  savingEdit: false,
  editError: null,
  confirmRemove: null,
  removing: false,
  rowErrors: {},

  openDialog() {
    if (get().open) return;
    set({ open: true, addError: null, added: null, rowErrors: {}, editing: null, editError: null });
    void get().load();
  },

  closeDialog() {
    set({ open: false, confirmRemove: null, editing: null });
  },

  escape() {
    if (get().confirmRemove !== null) get().cancelRemove();
    else if (get().editing !== null) get().cancelEdit();
    else get().closeDialog();
  },

  async load() {
    set({ loading: true });
    const reply = await bridge['identity:list']({});
    if (reply.ok) set({ identities: reply.value, listError: null, loading: false });
    else set({ listError: reply.error.message, loading: false });
  },

  editDraft(patch) {
    set((state) => ({ draft: { ...state.draft, ...patch }, addError: null, added: null }));
  },

  async add() {
    const { draft, adding } = get();
    if (adding) return;
    set({ adding: true, addError: null, added: null });
    const reply = await bridge['identity:add']({ address: draft.address.trim(), name: orNull(draft.name) });
    if (!reply.ok) {
      set({ adding: false, addError: reply.error.message });
      return;
    }
    set({ adding: false, added: reply.value.identity.address, draft: emptyDraft });
    // Read again rather than placed here: main's order (the accounts' own first) is main's to say.
    await get().load();
  },

  startEdit(address) {
    const identity = get().identities.find((i) => i.address === address);
    if (!identity || get().savingEdit) return;
    set({
      editing: { address, name: identity.name ?? '', signature: identity.signature ?? '' },
      editError: null,
      confirmRemove: null,
    });
  },

  editField(patch) {
    set((state) => (state.editing ? { editing: { ...state.editing, ...patch }, editError: null } : {}));
  },

  cancelEdit() {
    if (!get().savingEdit) set({ editing: null, editError: null });
  },

  async saveEdit() {
    const { editing, savingEdit } = get();
    if (editing === null || savingEdit) return;
    set({ savingEdit: true, editError: null });
    const reply = await bridge['identity:add']({
      address: editing.address,
      name: orNull(editing.name),
      // A signature keeps its own line breaks; the main process stores them as LF.
      signature: orNull(editing.signature),
    });
    if (!reply.ok) {
      set({ savingEdit: false, editError: reply.error.message });
      return;
    }
    set({ savingEdit: false, editing: null });
    await get().load();
  },

  askRemove(address) {
    if (!get().removing) set({ confirmRemove: address, editing: null });
  },

  cancelRemove() {
    if (!get().removing) set({ confirmRemove: null });
  },

  async remove() {
    const address = get().confirmRemove;
    if (address === null || get().removing) return;
    set({ removing: true });
    const reply = await bridge['identity:remove']({ address });
    if (!reply.ok) {
      const message = reply.error.message;
      set((state) => ({
        removing: false,
        confirmRemove: null,
        rowErrors: { ...state.rowErrors, [address]: message },
      }));
      return;
    }
    set((state) => {
      const { [address]: _, ...rowErrors } = state.rowErrors;
      return {
        removing: false,
        confirmRemove: null,
        rowErrors,
        identities: state.identities.filter((i) => i.address !== address),
      };
    });
  },
}));
