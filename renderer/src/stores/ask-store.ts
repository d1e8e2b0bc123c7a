// One question at a time, asked in a dialog before a change that needs it (issue 29 §4, §7): a name to give
// (Rename…, New folder…) or a yes to something that cannot be taken back (Delete forever, Empty Trash) or that
// changes many conversations (Delete label). `ask` resolves with the name typed ('' for a yes), or null.
import { create } from 'zustand';

type Question = {
  title: string;
  detail?: string;
  confirm: string;
  // The confirm button warns: the change is for good.
  danger?: boolean;
  // Asks for a name, starting from this value.
  name?: { label: string; value: string; maxLength: number };
};

type AskState = {
  question: Question | null;
  ask(question: Question): Promise<string | null>;
  answer(value: string | null): void;
};

export const useAskStore = create<AskState>()((set, get) => {
  let resolve: ((value: string | null) => void) | null = null;
  return {
    question: null,
    ask(question) {
      // A second question replaces the first, which counts as cancelled.
      resolve?.(null);
      set({ question });
      return new Promise((r) => {
        resolve = r;
      });
    },
    answer(value) {
      if (get().question === null) return;
      const done = resolve;
      resolve = null;
      set({ question: null });
      done?.(value);
    },
  };
});
