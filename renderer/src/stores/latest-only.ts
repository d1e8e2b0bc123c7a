// Requests whose newest answer alone matters (the search box): one runs at a time, a request made while one
// runs waits in its place and replaces any request waiting before it, and an answer is shown only when no
// newer request was made since it was asked for. So a burst of searches sends the first and the last, never
// piles up behind a slow one, and a stale answer never replaces a newer one. Pure apart from the promises;
// tested in latest-only.test.ts.
export type LatestOnly<Q> = {
  /** Resolves once this request's answer, or a newer one's, has been shown (or dropped by `cancel`). */
  request(query: Q): Promise<void>;
  /** Drops the answer of the request running and any waiting one (the search was cleared). */
  cancel(): void;
};

export function latestOnly<Q, A>(
  ask: (query: Q) => Promise<A>,
  show: (query: Q, answer: A) => void,
): LatestOnly<Q> {
  let running: Promise<void> | null = null;
  let waiting: { query: Q } | null = null;
  let generation = 0;

  async function drain(): Promise<void> {
    try {
      while (waiting) {
        const { query } = waiting;
        waiting = null;
        const asked = generation;
        const answer = await ask(query);
        if (waiting === null && asked === generation) show(query, answer);
      }
    } finally {
      running = null;
    }
  }

  return {
    request(query) {
      waiting = { query };
      running ??= drain();
      return running;
    },
    cancel() {
      generation++;
      waiting = null;
    },
  };
}
