// Requests whose newest answer alone matters (the search box): one runs at a time, a request made while one
// runs waits in its place and replaces any request waiting before it, and an answer is shown only when no
// newer request was made since it was asked for. So a burst of searches sends the first and the last, never
// piles up behind a slow one, and a stale answer never replaces a newer one. Pure apart from the promises;
// tested in latest-only.test.ts.
//
// `replaces`: the other side drops an older request when a newer one comes (`mail:search`: the read thread stops
// the search it replaces, DESIGN §11), so a request made while one runs is asked for at once instead of waiting
// for an answer nobody will see.
export type LatestOnly<Q> = {
  /** Resolves once this request's answer, or a newer one's, has been shown (or dropped by `cancel`). */
  request(query: Q): Promise<void>;
  /** Drops the answer of the request running and any waiting one (the search was cleared). */
  cancel(): void;
};

export function latestOnly<Q, A>(
  ask: (query: Q) => Promise<A>,
  show: (query: Q, answer: A) => void,
  options: { replaces?: boolean } = {},
): LatestOnly<Q> {
  if (options.replaces) return replacing(ask, show);
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

function replacing<Q, A>(ask: (query: Q) => Promise<A>, show: (query: Q, answer: A) => void): LatestOnly<Q> {
  // Each request's number; an answer is shown when its request is still the newest and was not cancelled.
  let newest = 0;
  let newestDone: Promise<void> = Promise.resolve();
  let cancelled = 0;
  return {
    request(query) {
      const mine = ++newest;
      const done: Promise<void> = ask(query).then((answer) => {
        if (mine === newest && mine > cancelled) show(query, answer);
        // A newer request came meanwhile: this one is done when that one is.
        if (mine !== newest) return newestDone;
      });
      newestDone = done;
      return done;
    },
    cancel() {
      cancelled = newest;
    },
  };
}
