// Model services settings (DESIGN §5): the saved services, the "Add service" draft, one inline edit, a remove
// that waits for confirmation, and each service's "List models" and "Test connection" results. Only those two
// reach a service, and only when the user presses their buttons; opening the screen or saving asks Skimmer alone.
// SECURITY: a typed key lives here only until it is sent; the bridge never returns one (views say `hasKey`).

import { create } from 'zustand';
import type { Request, Response, ServiceKind, ServiceView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { parsePrice } from '../services/price-text.ts';
import { removeConfirmed, without } from './confirm-remove.ts';
import {
  addSaved,
  byName,
  loadSavedList,
  openSavedList,
  type SavedListState,
  savedListStart,
  testSaved,
  withSaved,
} from './saved-list.ts';

export type ServiceDraft = { name: string; kind: ServiceKind; baseUrl: string; key: string };
type ServiceEdit = {
  id: number;
  name: string;
  baseUrl: string;
  key: string;
  removeKey: boolean;
  /** US dollars per million input tokens, as typed; empty for none. */
  price: string;
  saving: boolean;
  error: string | null;
};
export type ModelsResult =
  | { status: 'loading' }
  | { status: 'listed'; models: string[] }
  | { status: 'unlisted'; reason: string }
  | { status: 'failed'; error: string };

// `added` is the service as main saved it: its `endpoint` is the authoritative one.
type ServicesState = SavedListState<ServiceView> & {
  services: ServiceView[];
  draft: ServiceDraft;
  edit: ServiceEdit | null;
  // The remote service whose "send mail there?" confirmation is open (DESIGN §5), and whether its answer is on the way.
  confirmConsent: number | null;
  consenting: boolean;
  models: Record<number, ModelsResult>;

  openDialog(): void;
  closeDialog(): void;
  // Esc undoes the innermost thing: a pending remove, then an edit, then the dialog.
  escape(): void;
  setDraft(patch: Partial<ServiceDraft>): void;
  add(): Promise<void>;
  startEdit(id: number): void;
  setEdit(patch: Partial<Pick<ServiceEdit, 'name' | 'baseUrl' | 'key' | 'removeKey' | 'price'>>): void;
  cancelEdit(): void;
  saveEdit(): Promise<void>;
  askRemove(id: number): void;
  cancelRemove(): void;
  remove(): Promise<void>;
  askConsent(id: number): void;
  cancelConsent(): void;
  // Allowing goes through `askConsent` first; taking consent back needs no confirmation.
  setConsent(id: number, allow: boolean): Promise<void>;
  listModels(id: number): Promise<void>;
  testConnection(id: number): Promise<void>;
};

const emptyDraft = (kind: ServiceKind = 'openai'): ServiceDraft => ({ name: '', kind, baseUrl: '', key: '' });

function modelsResult(value: Response<'service:models'>): ModelsResult {
  return value.listed
    ? { status: 'listed', models: value.models }
    : { status: 'unlisted', reason: value.reason };
}

export const useServicesStore = create<ServicesState>()((set, get) => {
  // One ticket per service: a models answer that arrives after the service was edited or removed is dropped.
  const modelTickets = new Map<number, number>();
  let nextTicket = 1;

  function forgetModels(id: number): void {
    modelTickets.delete(id);
    set((state) => ({ models: without(state.models, id), tests: without(state.tests, id) }));
  }

  function replaceService(view: ServiceView): void {
    set((state) => ({ services: state.services.map((s) => (s.id === view.id ? view : s)).sort(byName) }));
  }

  return {
    ...savedListStart,
    services: [],
    draft: emptyDraft(),
    edit: null,
    confirmConsent: null,
    consenting: false,
    models: {},

    openDialog() {
      openSavedList(get, set);
    },

    closeDialog() {
      set((state) => ({
        open: false,
        draft: { ...state.draft, key: '' },
        edit: null,
        confirmRemove: null,
        confirmConsent: null,
        added: null,
        addError: null,
      }));
    },

    escape() {
      const { confirmRemove, confirmConsent, edit } = get();
      if (confirmConsent !== null) get().cancelConsent();
      else if (confirmRemove !== null) get().cancelRemove();
      else if (edit) get().cancelEdit();
      else get().closeDialog();
    },

    async load() {
      await loadSavedList(
        set,
        () => bridge['service:list']({}),
        (services) => ({ services }),
      );
    },

    setDraft(patch) {
      set((state) => ({ draft: { ...state.draft, ...patch }, addError: null }));
    },

    async add() {
      const { draft } = get();
      const request: Request<'service:add'> = {
        name: draft.name.trim(),
        kind: draft.kind,
        baseUrl: draft.baseUrl.trim(),
      };
      // Local servers often need no key: an empty field sends none.
      if (draft.key.trim() !== '') request.key = draft.key;
      await addSaved(
        get,
        set,
        () => bridge['service:add'](request),
        (state, view) => ({ draft: emptyDraft(state.draft.kind), services: withSaved(state.services, view) }),
      );
    },

    startEdit(id) {
      const service = get().services.find((s) => s.id === id);
      if (!service) return;
      set((state) => ({
        edit: {
          id,
          name: service.name,
          baseUrl: service.baseUrl,
          key: '',
          removeKey: false,
          price: service.inputPrice === null ? '' : String(service.inputPrice),
          saving: false,
          error: null,
        },
        confirmRemove: null,
        confirmConsent: null,
        rowErrors: without(state.rowErrors, id),
      }));
    },

    setEdit(patch) {
      const edit = get().edit;
      if (edit) set({ edit: { ...edit, ...patch, error: null } });
    },

    cancelEdit() {
      set({ edit: null });
    },

    async saveEdit() {
      const edit = get().edit;
      const service = get().services.find((s) => s.id === edit?.id);
      if (!edit || edit.saving || !service) return;
      const request: Request<'service:update'> = { id: edit.id };
      if (edit.name.trim() !== service.name) request.name = edit.name.trim();
      if (edit.baseUrl.trim() !== service.baseUrl) request.baseUrl = edit.baseUrl.trim();
      if (edit.key.trim() !== '') request.key = edit.key;
      else if (edit.removeKey) request.removeKey = true;
      const price = parsePrice(edit.price);
      if (price === undefined) {
        set({
          edit: {
            ...edit,
            error: 'Enter the price as US dollars per million input tokens, for example 0.15.',
          },
        });
        return;
      }
      const priceChanged = price !== service.inputPrice;
      if (Object.keys(request).length === 1 && !priceChanged) {
        set({ edit: null });
        return;
      }
      set({ edit: { ...edit, saving: true, error: null } });
      if (priceChanged) {
        const priced = await bridge['service:price']({ id: edit.id, inputPrice: price });
        if (get().edit?.id !== edit.id) return;
        if (!priced.ok) {
          set({ edit: { ...edit, saving: false, error: priced.error.message } });
          return;
        }
        replaceService(priced.value);
        if (Object.keys(request).length === 1) {
          set({ edit: null });
          return;
        }
      }
      const reply = await bridge['service:update'](request);
      if (get().edit?.id !== edit.id) return;
      if (!reply.ok) {
        set({ edit: { ...edit, saving: false, error: reply.error.message } });
        return;
      }
      replaceService(reply.value);
      // Models listed under the old settings may not hold for the new ones.
      forgetModels(edit.id);
      set({ edit: null });
    },

    askRemove(id) {
      set({ confirmRemove: id, confirmConsent: null, edit: null });
    },

    cancelRemove() {
      if (!get().removing) set({ confirmRemove: null });
    },

    async remove() {
      const id = await removeConfirmed(
        get,
        set,
        (id) => bridge['service:remove']({ id }),
        (state, id) => ({
          services: state.services.filter((s) => s.id !== id),
          added: state.added?.id === id ? null : state.added,
        }),
      );
      if (id !== null) forgetModels(id);
    },

    askConsent(id) {
      set((state) => ({
        confirmConsent: id,
        confirmRemove: null,
        edit: null,
        rowErrors: without(state.rowErrors, id),
      }));
    },

    cancelConsent() {
      if (!get().consenting) set({ confirmConsent: null });
    },

    // SECURITY: the row shows what main answers, never what was asked: main owns the stored consent, and an edit
    // of the address there voids it.
    async setConsent(id, allow) {
      if (get().consenting) return;
      set({ consenting: true });
      const reply = await bridge['service:consent']({ id, allow });
      if (!reply.ok) {
        set((state) => ({
          consenting: false,
          confirmConsent: null,
          rowErrors: { ...state.rowErrors, [id]: reply.error.message },
        }));
        return;
      }
      replaceService(reply.value);
      set({ consenting: false, confirmConsent: null });
    },

    async testConnection(id) {
      await testSaved(get, set, id, () => bridge['service:test']({ id }));
    },

    async listModels(id) {
      if (get().models[id]?.status === 'loading') return;
      const ticket = nextTicket++;
      modelTickets.set(id, ticket);
      set((state) => ({ models: { ...state.models, [id]: { status: 'loading' } } }));
      const reply = await bridge['service:models']({ id });
      if (modelTickets.get(id) !== ticket) return;
      const result: ModelsResult = reply.ok
        ? modelsResult(reply.value)
        : { status: 'failed', error: reply.error.message };
      set((state) => ({ models: { ...state.models, [id]: result } }));
    },
  };
});
