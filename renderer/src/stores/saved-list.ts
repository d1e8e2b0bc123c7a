// What the Mail accounts and Model services dialogs do alike with the things the user saved: open the dialog
// and read the saved list from Skimmer, save the "Add" form through one call, and run a row's "Test". Each
// store keeps its own list field and bridge channels and passes them in; a confirmed remove is
// confirm-remove.ts. Only "Test" reaches a server, and only when the user presses it.
import type { RemoveState } from './confirm-remove.ts';

type Reply<T> = { ok: true; value: T } | { ok: false; error: { message: string } };
type SetState<S> = (update: (state: S) => Partial<S>) => void;

type Saved = { id: number; name: string };
export type TestResult = { status: 'testing' } | { status: 'done'; ok: boolean; message: string };

export type SavedListState<V extends Saved> = RemoveState & {
  open: boolean;
  loading: boolean;
  listError: string | null;
  adding: boolean;
  addError: string | null;
  // What was just added, as main saved it.
  added: V | null;
  tests: Record<number, TestResult>;
  load(): Promise<void>;
};

/** How a saved list starts: closed, not read yet, nothing being added, tested or removed. */
export const savedListStart = {
  open: false,
  loading: false,
  listError: null,
  adding: false,
  addError: null,
  added: null,
  confirmRemove: null,
  removing: false,
  rowErrors: {},
  tests: {},
} satisfies Omit<SavedListState<never>, 'load'>;

// The order main lists them in (SQLite's ORDER BY name compares code units).
export const byName = (a: Saved, b: Saved) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** `list` in main's order with `view` in it, in place of the one with its id. */
export function withSaved<V extends Saved>(list: readonly V[], view: V): V[] {
  return [...list.filter((v) => v.id !== view.id), view].sort(byName);
}

/** Opens the dialog once, without what a previous visit left, and reads the list again. */
export function openSavedList<V extends Saved, S extends SavedListState<V>>(
  get: () => S,
  set: SetState<S>,
): void {
  if (get().open) return;
  set(() => ({ open: true, addError: null, added: null, rowErrors: {} }) as Partial<S>);
  void get().load();
}

/** Reads the saved list; a refusal is the list's error and the list shown stays as it was. */
export async function loadSavedList<V extends Saved, S extends SavedListState<V>>(
  set: SetState<S>,
  call: () => Promise<Reply<V[]>>,
  listed: (views: V[]) => Partial<S>,
): Promise<void> {
  set(() => ({ loading: true }) as Partial<S>);
  const reply = await call();
  if (reply.ok) set(() => ({ ...listed(reply.value), listError: null, loading: false }));
  else set(() => ({ listError: reply.error.message, loading: false }) as Partial<S>);
}

/**
 * Saves the "Add" form: nothing while a save runs; a refusal is the form's error; once saved, `saved` says
 * what else changes (the list, the emptied draft).
 */
export async function addSaved<V extends Saved, S extends SavedListState<V>>(
  get: () => S,
  set: SetState<S>,
  call: () => Promise<Reply<V>>,
  saved: (state: S, view: V) => Partial<S>,
): Promise<void> {
  if (get().adding) return;
  set(() => ({ adding: true, addError: null, added: null }) as Partial<S>);
  const reply = await call();
  if (!reply.ok) {
    const message = reply.error.message;
    set(() => ({ adding: false, addError: message }) as Partial<S>);
    return;
  }
  set((state) => ({ adding: false, added: reply.value, ...saved(state, reply.value) }));
}

/** A row's "Test": one at a time per row; a refusal is shown as the test's failed result. */
export async function testSaved<V extends Saved, S extends SavedListState<V>>(
  get: () => S,
  set: SetState<S>,
  id: number,
  call: () => Promise<Reply<{ ok: boolean; message: string }>>,
): Promise<void> {
  if (get().tests[id]?.status === 'testing') return;
  set((state) => ({ tests: { ...state.tests, [id]: { status: 'testing' } } }) as Partial<S>);
  const reply = await call();
  const result: TestResult = reply.ok
    ? { status: 'done', ok: reply.value.ok, message: reply.value.message }
    : { status: 'done', ok: false, message: reply.error.message };
  set((state) => ({ tests: { ...state.tests, [id]: result } }) as Partial<S>);
}
