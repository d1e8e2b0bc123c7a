// Starts the worker that keeps an account in sync and relays what it reports (issue 5).
import { Worker } from 'node:worker_threads';
import type { WriteTurn } from '../../db/write-turn.ts';
import { workerModule } from '../../worker-calls.ts';
import type { AccountLogin } from '../accounts.ts';
import type { SyncWorkerCommand, SyncWorkerData, SyncWorkerMessage } from './sync-worker.ts';

export type SyncJob = {
  syncNow: () => void;
  /** The folder to wait on for news (IDLE); null: INBOX. */
  focus: (path: string | null) => void;
  stop: () => Promise<void>;
  /** True once a stop had to terminate the worker: it had not closed its connections and exited by itself
   * within the grace (stuck in a network call). */
  readonly terminated: boolean;
};

const workerUrl = workerModule(import.meta.url, 'sync-worker');

export function startSyncJob(
  dbFile: string,
  login: AccountLogin,
  onMessage: (m: SyncWorkerMessage) => void,
  opts: { maxIdleMs?: number; stopGraceMs?: number; turn?: WriteTurn } = {},
): SyncJob {
  const { stopGraceMs = 5000, ...workerOpts } = opts;
  const data: SyncWorkerData = { dbFile, login, ...workerOpts };
  const worker = new Worker(workerUrl, { workerData: data });
  // Whoever listens hears `stopped` exactly once, also when the worker died or was terminated before it
  // could say so (a stop that waited too long ends with terminate()).
  let stoppedSaid = false;
  const relay = (m: SyncWorkerMessage) => {
    if (m.type === 'stopped') {
      if (stoppedSaid) return;
      stoppedSaid = true;
    }
    onMessage(m);
  };
  let terminated = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      relay({ type: 'stopped' });
      resolve();
    }),
  );
  worker.on('message', relay);
  worker.on('error', () => relay({ type: 'stopped' }));
  const send = (c: SyncWorkerCommand) => worker.postMessage(c);
  return {
    syncNow: () => send({ type: 'sync-now' }),
    focus: (path) => send({ type: 'focus', path }),
    async stop() {
      send({ type: 'stop' });
      // A worker stuck in a network call is not waited for forever.
      const timeout = setTimeout(() => {
        terminated = true;
        void worker.terminate();
      }, stopGraceMs);
      await exited;
      clearTimeout(timeout);
    },
    get terminated() {
      return terminated;
    },
  };
}
