// The triage thread (judge-worker.ts) for the long-running app: a job's runs and new jobs as promises, with a
// run's pause and cancel as messages. The thread starts at the first run and lives until close(); one that dies fails the runs
// it held (their jobs show "The triage job failed." and Resume carries on) and the next run starts another.
// Commands work their runs on their own thread (job-work.ts `workHere`): starting a thread would buy nothing.
import { Worker } from 'node:worker_threads';
import { errorOf } from '../../thread-errors.ts';
import { waitingCalls, workerModule } from '../../worker-calls.ts';
import type { JobPlace, WorkControl, WorkOutcome } from './job-work.ts';
import type { JudgeCommand, JudgeReport, JudgeWorkerData } from './judge-worker.ts';

export type TriageThread = JobPlace & { close(): Promise<void> };

const workerUrl = workerModule(import.meta.url, 'judge-worker');

export function startTriageThread(dbFile: string): TriageThread {
  let worker: Worker | null = null;
  let closed = false;
  // A run's outcome or a new job's id; a run's control hears its progress.
  const runs = waitingCalls<WorkOutcome | number, { control?: WorkControl }>();

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(workerUrl, {
      name: 'triage',
      workerData: { dbFile } satisfies JudgeWorkerData,
    });
    started.on('message', (r: JudgeReport) => {
      if (r.type === 'progress') runs.get(r.seq)?.control?.onProgress?.(r.progress);
      else if (r.type === 'done') runs.answer(r.seq, { value: r.outcome });
      else if (r.type === 'inserted') runs.answer(r.seq, { value: r.id });
      else runs.answer(r.seq, { error: errorOf(r) });
    });
    started.on('error', () => {}); // followed by 'exit'
    started.on('exit', () => {
      if (worker === started) worker = null;
      // Closing leaves the runs unsettled on purpose: their jobs stay running in the database and the next start
      // resumes them (app.ts), as a job on this thread would at a quit.
      if (closed) return;
      runs.failAll(new Error('The triage thread stopped.'));
    });
    worker = started;
    return started;
  }

  return {
    work(work, control) {
      const send = (c: JudgeCommand) => worker?.postMessage(c);
      return runs.call(
        (seq) => {
          // SECURITY: the run carries the service's key to a thread of this same process, never further: it is
          // not logged, and the thread's errors say what failed without the connection.
          thread().postMessage({ type: 'run', seq, work } satisfies JudgeCommand);
          const drain = () => send({ type: 'drain', seq });
          const abort = () => send({ type: 'abort', seq });
          if (control.drain.aborted) drain();
          else control.drain.addEventListener('abort', drain, { once: true });
          if (control.signal.aborted) abort();
          else control.signal.addEventListener('abort', abort, { once: true });
        },
        { control },
      ) as Promise<WorkOutcome>;
    },
    insert(job) {
      return runs.call((seq) => {
        thread().postMessage({ type: 'insert', seq, job } satisfies JudgeCommand);
      }) as Promise<number>;
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
