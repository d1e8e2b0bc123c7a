// Editing a question set in the Triage dialog: a draft of the set, Save through `judge:saveSet` (Skimmer's
// main process checks the rules and answers a refusal with its sentence, shown as is), and Remove.
import { create } from 'zustand';
import { bridge } from '../bridge.ts';
import {
  draftOf,
  newQuestion,
  type QuestionDraft,
  type QuestionType,
  requestOf,
  type SetDraft,
} from '../triage/set-draft.ts';
import { useTriageStore } from './triage-store.ts';

type SetEditorState = {
  draft: SetDraft | null;
  saving: boolean;
  error: string | null;

  edit(setId: number | null): void;
  close(): void;
  rename(name: string): void;
  changeQuestion(key: number, patch: Partial<Omit<QuestionDraft, 'key'>>): void;
  addQuestion(type: QuestionType): void;
  removeQuestion(key: number): void;
  save(): Promise<void>;
  remove(): Promise<void>;
};

export const useSetEditorStore = create<SetEditorState>()((set, get) => {
  const change = (update: (draft: SetDraft) => SetDraft) => {
    const { draft } = get();
    if (draft) set({ draft: update(draft), error: null });
  };

  return {
    draft: null,
    saving: false,
    error: null,

    edit(setId) {
      const found = useTriageStore.getState().sets.find((s) => s.id === setId) ?? null;
      set({ draft: draftOf(found), error: null, saving: false });
    },

    close() {
      set({ draft: null, error: null });
    },

    rename(name) {
      change((draft) => ({ ...draft, name }));
    },

    changeQuestion(key, patch) {
      change((draft) => ({
        ...draft,
        questions: draft.questions.map((q) => {
          if (q.key !== key) return q;
          // A new type starts from that type's sample lines, not another type's.
          if (patch.type && patch.type !== q.type)
            return { ...newQuestion(patch.type), key, name: q.name, instructions: q.instructions };
          return { ...q, ...patch };
        }),
      }));
    },

    addQuestion(type) {
      change((draft) => ({ ...draft, questions: [...draft.questions, newQuestion(type)] }));
    },

    removeQuestion(key) {
      change((draft) => ({ ...draft, questions: draft.questions.filter((q) => q.key !== key) }));
    },

    async save() {
      const { draft, saving } = get();
      if (!draft || saving) return;
      set({ saving: true, error: null });
      const reply = await bridge['judge:saveSet'](requestOf(draft));
      if (!reply.ok) {
        set({ saving: false, error: reply.error.message });
        return;
      }
      set({ saving: false, draft: null });
      const triage = useTriageStore.getState();
      await triage.loadSets();
      triage.setChanged(reply.value.id);
    },

    async remove() {
      const { draft } = get();
      if (!draft || draft.id === null) return;
      const reply = await bridge['judge:removeSet']({ id: draft.id });
      if (!reply.ok) {
        set({ error: reply.error.message });
        return;
      }
      set({ draft: null });
      const triage = useTriageStore.getState();
      await triage.loadSets();
      triage.setChanged(useTriageStore.getState().setId);
    },
  };
});
