// Which messages of the open conversation show in full, as in Gmail: the unread ones and the last one start
// open, the read ones before them collapse to one line. The decision is taken when a conversation is first
// shown and kept while it stays open: opening it marks its messages read, and the reload that follows must
// not fold them away under the reader's eyes. A message that arrives later (a new reply) opens by the same
// rule. Pure; tested in thread-open-state.test.ts.

export type OpenMessage = { id: number; unread: boolean };

export type ThreadOpenState = {
  threadId: number | null;
  known: ReadonlySet<number>; // every message id the rule has been applied to
  open: ReadonlySet<number>;
};

export const closedThread: ThreadOpenState = { threadId: null, known: new Set(), open: new Set() };

/** The messages that start open: the unread ones and the newest (the last in thread order). */
export function initiallyOpen(messages: readonly OpenMessage[]): Set<number> {
  const open = new Set<number>();
  messages.forEach((message, index) => {
    if (message.unread || index === messages.length - 1) open.add(message.id);
  });
  return open;
}

/** The state for `messages` of `threadId`: a new conversation starts over, the same one keeps its choices. */
export function syncOpenState(
  state: ThreadOpenState,
  threadId: number,
  messages: readonly OpenMessage[],
): ThreadOpenState {
  if (state.threadId !== threadId) {
    return { threadId, known: new Set(messages.map((m) => m.id)), open: initiallyOpen(messages) };
  }
  const fresh = messages.filter((message) => !state.known.has(message.id));
  if (fresh.length === 0) return state;
  const open = new Set(state.open);
  const last = messages[messages.length - 1];
  for (const message of fresh) if (message.unread || message === last) open.add(message.id);
  return { threadId, known: new Set([...state.known, ...fresh.map((m) => m.id)]), open };
}

export function setOpen(state: ThreadOpenState, id: number, open: boolean): ThreadOpenState {
  if (state.open.has(id) === open) return state;
  const next = new Set(state.open);
  if (open) next.add(id);
  else next.delete(id);
  return { ...state, open: next };
}

export function openAll(state: ThreadOpenState): ThreadOpenState {
  return { ...state, open: new Set(state.known) };
}

export function closeAll(state: ThreadOpenState): ThreadOpenState {
  return { ...state, open: new Set() };
}
