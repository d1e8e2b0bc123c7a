// Starts an import in a worker thread and turns its counters into the contract's stream events
// (progress with rate and ETA, then exactly one `import_done` or `error`).
import { Worker } from 'node:worker_threads';
import type { StreamEvent } from '../../../shared/contract/index.ts';
import type { WriteTurn } from '../../db/write-turn.ts';
import type { Places } from '../../files/safe-open.ts';
import { workerModule } from '../../worker-calls.ts';
import type { ImportCounters } from './import-run.ts';
import type { ImportWorkerData, ImportWorkerMessage } from './import-worker.ts';
import { importThreadLimits } from './thread-memory.ts';

export type ImportJob = { cancel: () => void; done: Promise<void> };

const workerUrl = workerModule(import.meta.url, 'import-worker');

export function startImportJob(
  dbFile: string,
  paths: readonly string[],
  places: Places,
  onEvent: (event: StreamEvent) => void,
  opts: {
    /** The number of parse threads, when not the default for this machine (parse-pool.ts): bench/import.ts. */
    parseThreads?: number;
    /** The main thread's right of way to the write lock (db/write-turn.ts), in the long-running app. */
    turn?: WriteTurn;
  } = {},
): ImportJob {
  const cancelFlag = new SharedArrayBuffer(4);
  const started = performance.now();
  const data: ImportWorkerData = {
    dbFile,
    paths: [...paths],
    places,
    cancelFlag,
    parseThreads: opts.parseThreads,
    turn: opts.turn,
  };
  const worker = new Worker(workerUrl, { workerData: data, resourceLimits: importThreadLimits });
  let ended = false;
  const end = (event: StreamEvent) => {
    if (ended) return;
    ended = true;
    onEvent(event);
  };
  const done = new Promise<void>((resolve) => {
    worker.on('message', (m: ImportWorkerMessage) => {
      if (m.type === 'progress') onEvent(progressEvent(m.counters, (performance.now() - started) / 1000));
      else end({ type: 'import_done', summary: m.result.summary, cancelled: m.result.cancelled });
    });
    worker.on('error', () =>
      end({ type: 'error', error: { code: 'internal', message: 'The import stopped unexpectedly.' } }),
    );
    worker.on('exit', () => {
      end({ type: 'error', error: { code: 'internal', message: 'The import stopped unexpectedly.' } });
      resolve();
    });
  });
  return { cancel: () => Atomics.store(new Int32Array(cancelFlag), 0, 1), done };
}

function progressEvent(c: ImportCounters, elapsedSeconds: number): StreamEvent {
  const perSecond = elapsedSeconds > 0 ? c.messages / elapsedSeconds : 0;
  const bytesPerSecond = elapsedSeconds > 0 ? c.bytesDone / elapsedSeconds : 0;
  const remaining = Math.max(0, c.bytesTotal - c.bytesDone);
  return {
    type: 'import_progress',
    messages: c.messages,
    imported: c.imported,
    duplicates: c.duplicates,
    failed: c.failed,
    bytesDone: c.bytesDone,
    bytesTotal: c.bytesTotal,
    perSecond: Math.round(perSecond * 10) / 10,
    etaSeconds: bytesPerSecond > 0 ? Math.round(remaining / bytesPerSecond) : null,
  };
}
