// The ordered list on its own thread (ordered-threads-worker.ts) for the long-running app, the desktop app and
// `serve`: the same function as prepareOrderedThreads().page, answered as a promise. The thread starts with the
// first request and lives until close(); a thread that dies fails the requests it held with an error and is
// started again by the next one. One-shot commands order on their own thread (they have nothing else to do).
import { Worker } from 'node:worker_threads';
import { AssistantError } from '../assistant-error.ts';
import type { OrderedPage, OrderRequest } from './ordered-threads.ts';
import type { OrderedReply, OrderedRequest, OrderedWorkerData } from './ordered-threads-worker.ts';

export type OrderedThreadsThread = {
  page(request: OrderRequest): Promise<OrderedPage>;
  close(): Promise<void>;
};

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './ordered-threads-worker.ts' : './ordered-threads-worker.js',
  import.meta.url,
);

type Waiting = { resolve: (page: OrderedPage) => void; reject: (e: Error) => void };

export function startOrderedThreadsThread(dbFile: string): OrderedThreadsThread {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, Waiting>();

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'ordered-threads',
      workerData: { dbFile } satisfies OrderedWorkerData,
    });
    started.on('message', (r: OrderedReply) => {
      const w = waiting.get(r.seq);
      waiting.delete(r.seq);
      if (!w) return;
      if (r.ok) w.resolve(r.page);
      else w.reject(r.reason ? new AssistantError(r.reason, r.message) : new Error(r.message));
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      for (const w of waiting.values()) w.reject(new Error('The ordered list’s thread stopped.'));
      waiting.clear();
    });
    worker = started;
    return started;
  }

  return {
    page(request) {
      const id = seq++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread().postMessage({ seq: id, request } satisfies OrderedRequest);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
