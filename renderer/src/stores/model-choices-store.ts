// One model choice (DESIGN §5, "Choosing a model"): the default model of each task, set once in Settings (the
// "Model services" screen), and the model lists the services gave when the user last asked, which every model
// field offers. Reading them asks Skimmer only: no service is contacted here.
import { create } from 'zustand';
import type { ModelDefaults, ModelTask, ServiceModels } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';

type ModelChoicesState = {
  defaults: ModelDefaults;
  lists: ServiceModels[];
  // The task whose default is being saved, and the last failure to save or load, in Skimmer's words.
  saving: ModelTask | null;
  error: string | null;
  load(): Promise<void>;
  setDefault(task: ModelTask, model: string | null): Promise<boolean>;
};

export const useModelChoicesStore = create<ModelChoicesState>()((set, get) => ({
  defaults: { chat: null, summary: null, triage: null },
  lists: [],
  saving: null,
  error: null,

  async load() {
    const [defaults, lists] = await Promise.all([bridge['model:defaults']({}), bridge['model:lists']({})]);
    if (!defaults.ok) return set({ error: defaults.error.message });
    if (!lists.ok) return set({ error: lists.error.message });
    set({ defaults: defaults.value, lists: lists.value, error: null });
  },

  async setDefault(task, model) {
    if (get().saving !== null) return false;
    set({ saving: task, error: null });
    const reply = await bridge['model:setDefault']({ task, model });
    if (!reply.ok) {
      set({ saving: null, error: reply.error.message });
      return false;
    }
    set({ saving: null, defaults: reply.value });
    return true;
  },
}));

/** The task's default model, or '' when none is set: what a model field starts from. */
export const defaultModel = (task: ModelTask): string => useModelChoicesStore.getState().defaults[task] ?? '';
