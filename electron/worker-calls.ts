// How the main process's wrappers around worker threads (the read thread, the triage thread, the IMAP fetcher,
// the parse pool, the sync and import jobs) find their worker's module and wait for its replies (issue 30 §4):
// one place for each, so a wrapper holds only what is its own (bounds, batches, progress).

/**
 * The worker module `name` beside the module at `base` (its import.meta.url): from source (Node 24 strips the
 * types) the .ts file, in the Electron and CLI builds the bundled .js beside the one that starts it
 * (vite.electron.config.ts, vite.cli.config.ts; test/worker-entries.test.ts checks each is built).
 */
export function workerModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

export type Waiting<T> = { resolve: (value: T) => void; reject: (e: Error) => void };

/**
 * The calls posted to a worker that wait for its reply, by the sequence number the reply carries. A reply for
 * no waiting call (answered already, or failed when the thread stopped) is dropped.
 */
export function waitingCalls<T, Extra extends object = object>() {
  let next = 0;
  const calls = new Map<number, Waiting<T> & Extra>();
  return {
    /** A new call: `post` sends it with its number, and the promise is settled by its reply. */
    call(post: (seq: number) => void, extra?: Extra): Promise<T> {
      const seq = next++;
      return new Promise<T>((resolve, reject) => {
        calls.set(seq, { ...(extra as Extra), resolve, reject });
        try {
          post(seq);
        } catch (e) {
          // Nothing was sent (a buffer that cannot move, a thread already gone): this call fails, not the caller.
          calls.delete(seq);
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    },
    /** The call a reply is for, still waiting; undefined when none is. */
    get(seq: number): (Waiting<T> & Extra) | undefined {
      return calls.get(seq);
    },
    /** Settles the call with its reply; false when no call waited for it. */
    answer(seq: number, outcome: { value: T } | { error: Error }): boolean {
      const waiting = calls.get(seq);
      if (!waiting) return false;
      calls.delete(seq);
      if ('error' in outcome) waiting.reject(outcome.error);
      else waiting.resolve(outcome.value);
      return true;
    },
    /** Fails every call still waiting (the thread stopped or is being closed). */
    failAll(error: Error): void {
      const all = [...calls.values()];
      calls.clear();
      for (const waiting of all) waiting.reject(error);
    },
    get size(): number {
      return calls.size;
    },
  };
}
