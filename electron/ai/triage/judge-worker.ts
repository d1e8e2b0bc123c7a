// The triage thread (DESIGN §3, issue 18): a triage job's runs are worked here, on a connection of their own, so
// the requests to the service, the answers' parsing, the items, the cache and the audit rows never hold the
// main thread (bench/main-stall.ts measured them at 40–87 ms of it at a time). New jobs are written here too,
// their scope read here: a job over a whole mailbox is tens of thousands of items. The main thread keeps the
// job: its state, the consent check and the key (triage-jobs.ts); what comes back is progress, how the run
// ended, a new job's id, or a typed error as its class (thread-errors.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/open.ts';
import { type Failure, failureOf } from '../../thread-errors.ts';
import {
  insertJob,
  type JobWork,
  type NewJob,
  type TriageProgress,
  type WorkOutcome,
  workOnJob,
} from './job-work.ts';

export type JudgeWorkerData = { dbFile: string };
export type JudgeCommand =
  | { type: 'run'; seq: number; work: JobWork }
  /** A new job and its items (its scope read here when no ids come with it). */
  | { type: 'insert'; seq: number; job: NewJob }
  /** Stop starting requests; the ones in flight are still recorded (a pause). */
  | { type: 'drain'; seq: number }
  /** Abandon the requests in flight (a cancel, or a pause that outlasted its grace). */
  | { type: 'abort'; seq: number };
export type JudgeReport =
  | { type: 'progress'; seq: number; progress: TriageProgress }
  | { type: 'done'; seq: number; outcome: WorkOutcome }
  | { type: 'inserted'; seq: number; id: number }
  | ({ type: 'failed'; seq: number } & Failure);

const { dbFile } = workerData as JudgeWorkerData;
// The main connection has migrated the file already.
const db = openDatabase(dbFile);
const runs = new Map<number, { drain: AbortController; abort: AbortController }>();
const report = (r: JudgeReport) => parentPort?.postMessage(r);
const failed = (seq: number, e: unknown): JudgeReport => ({ type: 'failed', seq, ...failureOf(e) });

parentPort?.on('message', (c: JudgeCommand) => {
  if (c.type === 'insert') {
    try {
      report({ type: 'inserted', seq: c.seq, id: insertJob(db, c.job) });
    } catch (e) {
      report(failed(c.seq, e));
    }
  } else if (c.type === 'drain') runs.get(c.seq)?.drain.abort();
  else if (c.type === 'abort') runs.get(c.seq)?.abort.abort();
  else {
    const control = { drain: new AbortController(), abort: new AbortController() };
    runs.set(c.seq, control);
    workOnJob(db, c.work, {
      signal: control.abort.signal,
      drain: control.drain.signal,
      onProgress: (progress) => report({ type: 'progress', seq: c.seq, progress }),
    })
      .then(
        (outcome) => report({ type: 'done', seq: c.seq, outcome }),
        (e: unknown) => report(failed(c.seq, e)),
      )
      .finally(() => runs.delete(c.seq));
  }
});
