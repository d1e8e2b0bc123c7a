// The triage thread (judge-worker.ts) for the long-running app: a job's runs and new jobs as promises, with a
// run's pause and cancel as messages. The thread starts at the first run and lives until close(); one that dies fails the runs
// it held (their jobs show "The triage job failed." and Resume carries on) and the next run starts another.
// Commands work their runs on their own thread (job-work.ts `workHere`): starting a thread would buy nothing.
import { Worker } from 'node:worker_threads';
import { rebuilt } from '../../thread-errors.ts';
import type { JobPlace, WorkControl, WorkOutcome } from './job-work.ts';
import type { JudgeCommand, JudgeReport, JudgeWorkerData } from './judge-worker.ts';

export type TriageThread = JobPlace & { close(): Promise<void> };

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './judge-worker.ts' : './judge-worker.js',
  import.meta.url,
);

type Waiting = {
  control?: WorkControl;
  resolve: (value: WorkOutcome | number) => void;
  reject: (e: Error) => void;
};

export function startTriageThread(dbFile: string): TriageThread {
  let worker: Worker | null = null;
  let closed = false;
  let seq = 0;
  const runs = new Map<number, Waiting>();

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'triage',
      workerData: { dbFile } satisfies JudgeWorkerData,
    });
    started.on('message', (r: JudgeReport) => {
      const run = runs.get(r.seq);
      if (!run) return;
      if (r.type === 'progress') {
        run.control?.onProgress?.(r.progress);
        return;
      }
      runs.delete(r.seq);
      if (r.type === 'done') run.resolve(r.outcome);
      else if (r.type === 'inserted') run.resolve(r.id);
      else run.reject(r.typed ? rebuilt(r.typed) : new Error(r.message));
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      // Closing leaves the runs unsettled on purpose: their jobs stay running in the database and the next start
      // resumes them (app.ts), as a job on this thread would at a quit.
      if (closed) return;
      for (const run of runs.values()) run.reject(new Error('The triage thread stopped.'));
      runs.clear();
    });
    worker = started;
    return started;
  }

  return {
    work(work, control) {
      const id = seq++;
      const send = (c: JudgeCommand) => worker?.postMessage(c);
      return new Promise<WorkOutcome>((resolve, reject) => {
        runs.set(id, { control, resolve: resolve as Waiting['resolve'], reject });
        // SECURITY: the run carries the service's key to a thread of this same process, never further: it is
        // not logged, and the thread's errors say what failed without the connection.
        thread().postMessage({ type: 'run', seq: id, work } satisfies JudgeCommand);
        const drain = () => send({ type: 'drain', seq: id });
        const abort = () => send({ type: 'abort', seq: id });
        if (control.drain.aborted) drain();
        else control.drain.addEventListener('abort', drain, { once: true });
        if (control.signal.aborted) abort();
        else control.signal.addEventListener('abort', abort, { once: true });
      });
    },
    insert(job) {
      const id = seq++;
      return new Promise<number>((resolve, reject) => {
        runs.set(id, { resolve: resolve as Waiting['resolve'], reject });
        thread().postMessage({ type: 'insert', seq: id, job } satisfies JudgeCommand);
      });
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
