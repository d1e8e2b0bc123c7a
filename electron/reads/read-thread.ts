// The read thread (read-worker.ts) for the long-running app, the desktop app and `serve`: the reads of reads.ts,
// answered as promises. The thread starts with start() or the first read and lives until close(); it also keeps
// the WAL checkpointed (read-worker.ts). A thread that dies fails the reads it held with an error and is started
// again by the next one. One-shot commands read on their own
// thread instead: there is no interface to keep answering, and starting a thread would cost more than the read.
import { Worker } from 'node:worker_threads';
import { rebuilt } from '../thread-errors.ts';
import type { ReadReply, ReadRequest, ReadWorkerData } from './read-worker.ts';
import type { ReadName, Reads, SomeReads } from './reads.ts';

export type ReadThread = {
  read<N extends ReadName>(name: N, ...args: Parameters<Reads[N]>): Promise<ReturnType<Reads[N]>>;
  /** Starts the thread before the first read, so it keeps the WAL checkpointed from the start (read-worker.ts). */
  start(): void;
  close(): Promise<void>;
};

/** How often the read thread copies the WAL back into the database. */
const checkpointEveryMs = 10_000;

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './read-worker.ts' : './read-worker.js',
  import.meta.url,
);

type Waiting = { resolve: (value: unknown) => void; reject: (e: Error) => void };

export function startReadThread(dbFile: string, checkpointMs = checkpointEveryMs): ReadThread {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, Waiting>();

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'reads',
      workerData: { dbFile, checkpointMs } satisfies ReadWorkerData,
    });
    started.on('message', (r: ReadReply) => {
      const w = waiting.get(r.seq);
      waiting.delete(r.seq);
      if (!w) return;
      if (r.ok) w.resolve(r.value);
      else w.reject(r.typed ? rebuilt(r.typed) : new Error(r.message));
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      for (const w of waiting.values()) w.reject(new Error('The read thread stopped.'));
      waiting.clear();
    });
    worker = started;
    return started;
  }

  return {
    read(name, ...args) {
      const id = seq++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        thread().postMessage({ seq: id, name, args } satisfies ReadRequest);
      });
    },
    start() {
      thread();
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

/** Each read on the read thread when there is one, else on this thread. */
export function readsOn(thread: ReadThread | null, here: Reads): SomeReads<ReadName> {
  if (!thread) return here;
  return {
    search: (...a) => thread.read('search', ...a),
    threads: (...a) => thread.read('threads', ...a),
    orderedThreads: (...a) => thread.read('orderedThreads', ...a),
    thread: (...a) => thread.read('thread', ...a),
    namedSources: (...a) => thread.read('namedSources', ...a),
    replyRequest: (...a) => thread.read('replyRequest', ...a),
    scopeMeasure: (...a) => thread.read('scopeMeasure', ...a),
    ruleSuggestions: (...a) => thread.read('ruleSuggestions', ...a),
    ruleMatches: (...a) => thread.read('ruleMatches', ...a),
    selectionLabels: (...a) => thread.read('selectionLabels', ...a),
  };
}
