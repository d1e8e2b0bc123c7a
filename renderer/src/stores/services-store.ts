// Model services settings (DESIGN §5): the saved services, the "Add service" draft, one inline edit, a remove
// that waits for confirmation, and each service's "List models" and "Test connection" results. Only those two
// reach a service, and only when the user presses their buttons; opening the screen or saving asks Skimmer alone.
// SECURITY: a typed key lives here only until it is sent; the bridge never returns one (views say `hasKey`).

import { create } from 'zustand';
import type { Request, Response, ServiceKind, ServiceView } from '../../../shared/contract.ts';
import { bridge } from '../bridge.ts';
import { parsePrice } from '../services/price-text.ts';
import { removeConfirmed, without } from './confirm-remove.ts';

export type ServiceDraft = { name: string; kind: ServiceKind; baseUrl: string; key: string };
export type ServiceEdit = {
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

type ServicesState = {
  open: boolean;
  services: ServiceView[];
  loading: boolean;
  listError: string | null;
  draft: ServiceDraft;
  adding: boolean;
  addError: string | null;
  // The service just added, as main saved it: its `endpoint` is the authoritative one.
  added: ServiceView | null;
  edit: ServiceEdit | null;
  confirmRemove: number | null;
  removing: boolean;
  // The remote service whose "send mail there?" confirmation is open (DESIGN §5), and whether its answer is on the way.
  confirmConsent: number | null;
  consenting: boolean;
  rowErrors: Record<number, string>;
  models: Record<number, ModelsResult>;
  tests: Record<number, TestResult>;

  openDialog(): void;
  closeDialog(): void;
  // Esc undoes the innermost thing: a pending remove, then an edit, then the dialog.
  escape(): void;
  load(): Promise<void>;
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

export type TestResult = { status: 'testing' } | { status: 'done'; ok: boolean; message: string };

const emptyDraft = (kind: ServiceKind = 'openai'): ServiceDraft => ({ name: '', kind, baseUrl: '', key: '' });

// The order main lists them in (SQLite's ORDER BY name compares code units).
const byName = (a: ServiceView, b: ServiceView) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

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
    open: false,
    services: [],
    loading: false,
    listError: null,
    draft: emptyDraft(),
    adding: false,
    addError: null,
    added: null,
    edit: null,
    confirmRemove: null,
    removing: false,
    confirmConsent: null,
    consenting: false,
    rowErrors: {},
    models: {},
    tests: {},

    openDialog() {
      if (get().open) return;
      set({ open: true, addError: null, added: null, rowErrors: {} });
      void get().load();
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
      set({ loading: true });
      const reply = await bridge['service:list']({});
      if (reply.ok) set({ services: reply.value, listError: null, loading: false });
      else set({ listError: reply.error.message, loading: false });
    },

    setDraft(patch) {
      set((state) => ({ draft: { ...state.draft, ...patch }, addError: null }));
    },

    async add() {
      const { draft, adding } = get();
      if (adding) return;
      const request: Request<'service:add'> = {
        name: draft.name.trim(),
        kind: draft.kind,
        baseUrl: draft.baseUrl.trim(),
      };
      // Local servers often need no key: an empty field sends none.
      if (draft.key.trim() !== '') request.key = draft.key;
      set({ adding: true, addError: null, added: null });
      const reply = await bridge['service:add'](request);
      if (!reply.ok) {
        set({ adding: false, addError: reply.error.message });
        return;
      }
      set((state) => ({
        adding: false,
        added: reply.value,
        draft: emptyDraft(state.draft.kind),
        services: [...state.services.filter((s) => s.id !== reply.value.id), reply.value].sort(byName),
      }));
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
      if (get().tests[id]?.status === 'testing') return;
      set((state) => ({ tests: { ...state.tests, [id]: { status: 'testing' } } }));
      const reply = await bridge['service:test']({ id });
      const result: TestResult = reply.ok
        ? { status: 'done', ok: reply.value.ok, message: reply.value.message }
        : { status: 'done', ok: false, message: reply.error.message };
      set((state) => ({ tests: { ...state.tests, [id]: result } }));
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
