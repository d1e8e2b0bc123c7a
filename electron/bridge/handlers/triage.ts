// The judge and triage channels of the bridge (issue 6): question sets, cached answers for the thread list's
// chips, estimates, and jobs whose progress streams to the page. Stop on a job's stream pauses it: what is
// done stays done, and Resume carries on.
import type { prepareServices } from '../../ai/services.ts';
import { prepareMessageAnswers } from '../../ai/triage/message-answers.ts';
import type { prepareNewMailTriage } from '../../ai/triage/new-mail-triage.ts';
import type { OrderedPage, OrderRequest } from '../../ai/triage/ordered-threads.ts';
import { prepareQuestionSets } from '../../ai/triage/question-sets.ts';
import { prepareRuleSuggestions } from '../../ai/triage/rule-suggestions.ts';
import type { prepareTriageJobs } from '../../ai/triage/triage-jobs.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import type { SomeReads } from '../../reads/reads.ts';
import type { Handlers } from '../dispatch.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  streams: StreamHub;
  log: Log;
  /** On the read thread in the long-running app (reads/read-thread.ts), on this one in a command. */
  ordered: (request: OrderRequest) => OrderedPage | Promise<OrderedPage>;
  /** A scope's measure and rules' matches: on the read thread in the long-running app. */
  reads: SomeReads<'scopeMeasure' | 'ruleSuggestions' | 'ruleMatches'>;
};
type Jobs = ReturnType<typeof prepareTriageJobs>;
type NewMail = ReturnType<typeof prepareNewMailTriage>;

export function triageHandlers(
  deps: Deps,
  jobs: Jobs,
  newMail: NewMail,
): Pick<
  Handlers,
  | 'judge:sets'
  | 'judge:saveSet'
  | 'judge:removeSet'
  | 'judge:addStarters'
  | 'judge:answers'
  | 'judge:threadAnswers'
  | 'judge:orderedThreads'
  | 'judge:setNewMail'
  | 'triage:suggest'
  | 'triage:apply'
  | 'triage:estimate'
  | 'triage:start'
  | 'triage:jobs'
  | 'triage:resume'
  | 'triage:cancel'
> {
  const sets = prepareQuestionSets(deps.db);
  const answers = prepareMessageAnswers(deps.db);
  // The card's suggestions and what Apply may change are read on the read thread; applying them writes here.
  const rules = prepareRuleSuggestions(deps.db, jobs.messagesIn);

  // Runs a job on a new stream: progress, then triage_done with the job as it ended. Stop pauses the job and
  // ends the stream at once; the answers already on their way are still recorded (triage-jobs.ts).
  function stream(jobId: number): { streamId: string } {
    let stopped = false;
    let ended = false;
    const end = (job: ReturnType<Jobs['get']>) => {
      if (ended) return;
      ended = true;
      deps.streams.emit(streamId, { type: 'triage_done', job }, true);
    };
    const streamId = deps.streams.start(() => {
      stopped = true;
      jobs.pause(jobId);
      // After the run:cancel reply, as every other event of a stream follows the call that started it.
      setImmediate(() => end(jobs.get(jobId)));
    });
    setImmediate(() => {
      if (stopped) return; // stopped before it began: it stays paused
      jobs
        .run(jobId, {
          onProgress: (p) => {
            if (!ended) deps.streams.emit(streamId, { type: 'triage_progress', ...p });
          },
        })
        .then(end, (e: unknown) => {
          deps.log.error('triage_run', e);
          end(jobs.get(jobId));
        });
    });
    return { streamId };
  }

  return {
    'judge:sets': () => sets.list(),
    'judge:saveSet': (r) => sets.save(r),
    'judge:removeSet': (r) => ({ removed: sets.remove(r.id) }),
    'judge:addStarters': () => sets.addStarters(),
    'judge:answers': (r) => answers.forMessages(r.setId, r.messageIds),
    'judge:threadAnswers': (r) => answers.forThreads(r.setId, r.threadIds),
    'judge:orderedThreads': (r) => deps.ordered(r),
    'judge:setNewMail': (r) => newMail.set(r.setId, r.model),
    'triage:suggest': (r) => deps.reads.ruleSuggestions(r.setId, r.scope, r.rules),
    'triage:apply': async (r) =>
      rules.apply(r.rules, r.approve, await deps.reads.ruleMatches(r.setId, r.scope, r.rules)),
    'triage:estimate': async (r) => jobs.estimate(await deps.reads.scopeMeasure(r.setId, r.scope), r.model),
    'triage:start': async (r) => {
      const job = await jobs.start(r.setId, r.model, r.scope);
      return { job, ...stream(job.id) };
    },
    'triage:jobs': () => jobs.list(),
    'triage:resume': (r) => {
      jobs.get(r.id);
      return stream(r.id);
    },
    'triage:cancel': (r) => {
      jobs.cancel(r.id);
      return jobs.get(r.id);
    },
  };
}
