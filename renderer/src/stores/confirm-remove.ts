// Removing a row after the user confirmed it, as the Accounts and Services dialogs do: the confirmation
// (which row, whether its removal is under way) and the row's error are kept here the same way for both;
// what else goes with the row is the caller's `removed`.

export type RemoveState = {
  confirmRemove: number | null;
  removing: boolean;
  rowErrors: Record<number, string>;
};

type Reply = { ok: true } | { ok: false; error: { message: string } };

/** `record` without the entry of `id`. */
export function without<T>(record: Record<number, T>, id: number): Record<number, T> {
  const { [id]: _, ...rest } = record;
  return rest;
}

/** Runs the confirmed removal: nothing while one runs; a refusal becomes the row's error, and the row stays. */
export async function removeConfirmed<S extends RemoveState>(
  get: () => S,
  set: (update: (state: S) => Partial<S>) => void,
  call: (id: number) => Promise<Reply>,
  removed: (state: S, id: number) => Partial<S>,
): Promise<number | null> {
  const id = get().confirmRemove;
  if (id === null || get().removing) return null;
  set(() => ({ removing: true }) as Partial<S>);
  const reply = await call(id);
  if (!reply.ok) {
    const message = reply.error.message;
    set(
      (state) =>
        ({
          removing: false,
          confirmRemove: null,
          rowErrors: { ...state.rowErrors, [id]: message },
        }) as Partial<S>,
    );
    return null;
  }
  set((state) => ({
    ...removed(state, id),
    removing: false,
    confirmRemove: null,
    rowErrors: without(state.rowErrors, id),
  }));
  return id;
}
