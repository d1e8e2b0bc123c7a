// The import's own thread with its own database connection (DESIGN §3): parsing and indexing never
// run on the main thread. Cancel is a shared flag, read between messages, so it works mid-file.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/open.ts';
import type { WriteTurn } from '../../db/write-turn.ts';
import type { Places } from '../../files/safe-open.ts';
import { runImport } from './import-run.ts';
import { createParsePool } from './parse-pool.ts';

export type ImportWorkerData = {
  dbFile: string;
  paths: string[];
  places: Places;
  cancelFlag: SharedArrayBuffer;
  parseThreads: number | undefined;
  /** The main thread's right of way to the write lock (db/write-turn.ts). */
  turn: WriteTurn | undefined;
};
export type ImportWorkerMessage =
  | { type: 'progress'; counters: import('./import-run.ts').ImportCounters }
  | { type: 'done'; result: Awaited<ReturnType<typeof runImport>> };

const { dbFile, paths, places, cancelFlag, parseThreads, turn } = workerData as ImportWorkerData;
const flag = new Int32Array(cancelFlag);
const progressEveryMs = 200;
const db = openDatabase(dbFile, { batches: true });
const pool = createParsePool(parseThreads, { startNow: true });
let last = 0;
try {
  const result = await runImport(db, paths, {
    parse: (raw) => pool.parse(raw, undefined, true),
    places,
    ...(turn ? { turn } : {}),
    isCancelled: () => Atomics.load(flag, 0) === 1,
    onProgress: (counters) => {
      const t = performance.now();
      if (t - last < progressEveryMs) return;
      last = t;
      parentPort?.postMessage({ type: 'progress', counters } satisfies ImportWorkerMessage);
    },
  });
  parentPort?.postMessage({ type: 'done', result } satisfies ImportWorkerMessage);
} finally {
  await pool.close();
  db.close();
}
