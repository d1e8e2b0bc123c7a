// The read thread (read-worker.ts) for the long-running app, the desktop app and `serve`: the reads of reads.ts,
// answered as promises. The thread starts with start() or the first read and lives until close(); it also keeps
// the WAL checkpointed (read-worker.ts). A thread that dies fails the reads it held with an error and is started
// again by the next one. One-shot commands read on their own
// thread instead: there is no interface to keep answering, and starting a thread would cost more than the read.
//
// A search is a bounded read (red-team item 8: one query held this thread 3–19 s, and every read behind it): it
// ends at its deadline, SearchQueryError `too_slow`, and a newer search from the same lane (the search box)
// replaces it, `cancelled`, answered at once. The thread sees both at its next check (mail/store/search.ts
// ReadCheck). What no check reaches, one step of SQLite's own, is cut short here: a bounded read still running
// `graceMs` past its deadline (or past being replaced) is answered, the thread is let go, and a new one reads
// what was waiting behind it, so no read can hold the ones after it for longer than that.
import { Worker } from 'node:worker_threads';
import { searchReplaced, searchTooSlow } from '../mail/store/search.ts';
import { searchScopeMs } from '../mail/store/selection.ts';
import { errorOf } from '../thread-errors.ts';
import { workerModule } from '../worker-calls.ts';
import type { ReadReply, ReadRequest, ReadWorkerData } from './read-worker.ts';
import type { ReadName, Reads, SomeReads } from './reads.ts';

/** A bounded read: how long it may run once the thread starts it, and its lane (a newer read there replaces it). */
type Bound = { ms: number; lane?: string };

export type ReadThread = {
  read<N extends ReadName>(name: N, ...args: Parameters<Reads[N]>): Promise<ReturnType<Reads[N]>>;
  /** A read that ends at its deadline (too_slow) or when a newer one in its lane is asked for (cancelled). */
  bounded<N extends ReadName>(
    bound: Bound,
    name: N,
    ...args: Parameters<Reads[N]>
  ): Promise<ReturnType<Reads[N]>>;
  /** Starts the thread before the first read, so it keeps the WAL checkpointed from the start (read-worker.ts). */
  start(): void;
  close(): Promise<void>;
};

/** How often the read thread copies the WAL back into the database. */
const checkpointEveryMs = 10_000;
/** How long a search may run on the read thread: the slowest of bench/search.ts's at 100,000 messages is 0.6 s. */
const searchMs = 2_000;
/** How long past its deadline a read may take to notice it before the thread is let go. */
const graceEveryMs = 500;

const workerUrl = workerModule(import.meta.url, 'read-worker');

type Pending = {
  request: ReadRequest;
  resolve: (value: unknown) => void;
  reject: (e: Error) => void;
  /** Answered already (replaced, or stopped here): what the thread says of it is dropped. */
  settled: boolean;
  lane?: string;
};

export function startReadThread(
  dbFile: string,
  checkpointMs = checkpointEveryMs,
  graceMs = graceEveryMs,
): ReadThread {
  let worker: Worker | null = null;
  let seq = 0;
  // In the order posted, which is the order the thread answers them in: the first is the one it is reading.
  const pending = new Map<number, Pending>();
  // The newest bounded read of each lane.
  const lanes = new Map<string, Pending>();
  let watch: { seq: number; at: number; timer: ReturnType<typeof setTimeout> } | null = null;

  const settle = (p: Pending, outcome: { value: unknown } | { error: Error }) => {
    if (p.settled) return;
    p.settled = true;
    if ('error' in outcome) p.reject(outcome.error);
    else p.resolve(outcome.value);
  };
  const forget = (p: Pending) => {
    pending.delete(p.request.seq);
    if (p.lane && lanes.get(p.lane) === p) lanes.delete(p.lane);
  };
  const head = (): Pending | undefined => pending.values().next().value;

  function unwatch(): void {
    if (watch) clearTimeout(watch.timer);
    watch = null;
  }
  function arm(p: Pending, at: number): void {
    unwatch();
    const timer = setTimeout(() => overdue(p), Math.max(0, at - Date.now()));
    timer.unref();
    watch = { seq: p.request.seq, at, timer };
  }
  // The read the thread is on is watched when it is bounded, from when it became the first.
  function watchHead(): void {
    const first = head();
    if (watch && watch.seq === first?.request.seq) return;
    unwatch();
    if (first?.request.bound) arm(first, Date.now() + first.request.bound.ms + graceMs);
  }

  // The thread has not answered a bounded read `graceMs` after it should have stopped: it is inside one step of
  // SQLite. That read is answered, the thread let go (it ends once the step returns), and the reads waiting
  // behind it, which it never started, are posted to a new one in the same order.
  function overdue(p: Pending): void {
    watch = null;
    if (head() !== p) return; // answered meanwhile
    forget(p);
    settle(p, { error: searchTooSlow(p.request.bound?.ms ?? 0) });
    const old = worker;
    worker = null;
    if (old) {
      old.removeAllListeners('message');
      old.removeAllListeners('exit');
      old.unref();
      void old.terminate();
    }
    const waiting = [...pending.values()].filter((q) => !q.settled);
    pending.clear();
    thread(); // at once, so the WAL is checkpointed still
    for (const q of waiting) post(q);
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'reads',
      workerData: { dbFile, checkpointMs } satisfies ReadWorkerData,
    });
    started.on('message', (r: ReadReply) => {
      const p = pending.get(r.seq);
      if (!p) return;
      forget(p);
      settle(p, r.ok ? { value: r.value } : { error: errorOf(r) });
      watchHead();
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      unwatch();
      for (const p of pending.values()) settle(p, { error: new Error('The read thread stopped.') });
      pending.clear();
      lanes.clear();
    });
    worker = started;
    return started;
  }

  function post(p: Pending): void {
    pending.set(p.request.seq, p);
    thread().postMessage(p.request);
    if (pending.size === 1) watchHead();
  }

  function ask(request: ReadRequest, lane?: string): Promise<never> {
    return new Promise((resolve, reject) => {
      const p: Pending = {
        request,
        resolve: resolve as (value: unknown) => void,
        reject,
        settled: false,
        lane,
      };
      if (lane !== undefined) {
        // SECURITY: a newer search from the search box stops the older one, so retyping never queues up reads.
        const older = lanes.get(lane);
        if (older && !older.settled && older.request.bound) {
          Atomics.store(older.request.bound.replaced, 0, 1);
          settle(older, { error: searchReplaced() });
          const soon = Date.now() + graceMs;
          if (watch?.seq === older.request.seq && watch.at > soon) arm(older, soon);
        }
        lanes.set(lane, p);
      }
      post(p);
    });
  }

  return {
    read(name, ...args) {
      return ask({ seq: seq++, name, args });
    },
    bounded(bound, name, ...args) {
      const replaced = new Int32Array(new SharedArrayBuffer(4));
      return ask({ seq: seq++, name, args, bound: { ms: bound.ms, replaced } }, bound.lane);
    },
    start() {
      thread();
    },
    async close() {
      const w = worker;
      worker = null;
      unwatch();
      await w?.terminate();
    },
  };
}

/** Each read on the read thread when there is one, else on this thread. */
export function readsOn(thread: ReadThread | null, here: Reads): SomeReads<ReadName> {
  if (!thread) return here;
  return {
    // A search and a search's selection are bounded (see above); the search box's has its lane.
    search: (text, limit, order, lane) =>
      thread.bounded({ ms: searchMs, lane }, 'search', text, limit, order, lane),
    threads: (...a) => thread.read('threads', ...a),
    orderedThreads: (...a) => thread.read('orderedThreads', ...a),
    thread: (...a) => thread.read('thread', ...a),
    namedSources: (...a) => thread.read('namedSources', ...a),
    replyRequest: (...a) => thread.read('replyRequest', ...a),
    scopeMeasure: (...a) => thread.read('scopeMeasure', ...a),
    ruleSuggestions: (...a) => thread.read('ruleSuggestions', ...a),
    ruleMatches: (...a) => thread.read('ruleMatches', ...a),
    selectionLabels: (...a) => thread.bounded({ ms: searchScopeMs }, 'selectionLabels', ...a),
    searchThreads: (...a) => thread.bounded({ ms: searchScopeMs }, 'searchThreads', ...a),
  };
}
