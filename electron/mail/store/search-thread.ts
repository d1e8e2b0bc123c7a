// Search on its own thread (search-worker.ts) for the long-running app, the desktop app and `serve`: the same
// function as prepareSearch, answered as a promise. The thread starts with the first search and lives until
// close(); a thread that dies fails the searches it held with an error and is started again by the next one.
// One-shot commands search on their own thread instead: there is no interface to keep answering, and
// starting a thread would cost more than the search.
import { Worker } from 'node:worker_threads';
import type { SearchHit } from '../../../shared/contract/index.ts';
import { type SearchOrder, SearchQueryError } from './search.ts';
import type { SearchReply, SearchRequest, SearchWorkerData } from './search-worker.ts';

export type SearchThread = {
  search(text: string, limit: number, order?: SearchOrder): Promise<SearchHit[]>;
  close(): Promise<void>;
};

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './search-worker.ts' : './search-worker.js',
  import.meta.url,
);

type Waiting = { resolve: (hits: SearchHit[]) => void; reject: (e: Error) => void };

export function startSearchThread(dbFile: string): SearchThread {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, Waiting>();

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'search',
      workerData: { dbFile } satisfies SearchWorkerData,
    });
    started.on('message', (r: SearchReply) => {
      const w = waiting.get(r.seq);
      waiting.delete(r.seq);
      if (!w) return;
      if (r.ok) w.resolve(r.hits);
      else w.reject(r.reason ? new SearchQueryError(r.reason, r.message) : new Error(r.message));
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      for (const w of waiting.values()) w.reject(new Error('The search thread stopped.'));
      waiting.clear();
    });
    worker = started;
    return started;
  }

  return {
    search(text, limit, order = 'newest') {
      const id = seq++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread().postMessage({ seq: id, text, limit, order } satisfies SearchRequest);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
