// Triage jobs (issue 6): a question set run over a folder, a search or the whole mailbox, persisted item by
// item (`triage_jobs`, `triage_items`), so pause, resume, cancel and a restart in the middle lose nothing and
// ask nothing twice (answers are cached as well). Owns both tables.
import type { TriageJobScope, TriageScope } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import { connectForMail } from '../model-access.ts';
import { charsPerToken } from '../protocol/budget.ts';
import type { prepareServices } from '../services.ts';
import { insertJob, type JobPlace, type TriageProgress, workHere } from './job-work.ts';
import { prepareQuestionSets } from './question-sets.ts';
import { prepareScopeMessages, type ScopeMeasure } from './scope-messages.ts';

export type { TriageScope };
export type JobState = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';
export type TriageJob = {
  id: number;
  setId: number;
  model: string;
  scope: TriageJobScope;
  state: JobState;
  error: string | null;
  total: number;
  done: number;
  failed: number;
};

/** A paused job waits this long for the answers already on their way before abandoning them. */
const pauseGraceMs = 10_000;

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  /** Where jobs are made and worked: the long-running app's triage thread (triage-thread.ts); this thread by default. */
  place?: JobPlace;
};

export function prepareTriageJobs(deps: Deps, now: () => number = Date.now) {
  const { db } = deps;
  const place = deps.place ?? workHere(db, { now });
  const sets = prepareQuestionSets(db, now);
  const messagesIn = prepareScopeMessages(db);
  const setState = db.prepare<[JobState, string | null, number, number]>(
    'UPDATE triage_jobs SET state = ?, error = ?, updated_at = ? WHERE id = ?',
  );
  const pending = db
    .prepare<[number]>("SELECT message FROM triage_items WHERE job_id = ? AND state = 'pending'")
    .pluck();
  const jobRow = db.prepare<
    [number],
    { id: number; set_id: number; model: string; scope_json: string; state: JobState; error: string | null }
  >('SELECT id, set_id, model, scope_json, state, error FROM triage_jobs WHERE id = ?');
  const counts = db.prepare<[number], { total: number; done: number; failed: number }>(
    `SELECT count(*) AS total, coalesce(sum(state = 'done'), 0) AS done, coalesce(sum(state = 'failed'), 0) AS failed
     FROM triage_items WHERE job_id = ?`,
  );
  const unfinished = db.prepare<[]>("SELECT id FROM triage_jobs WHERE state = 'running' ORDER BY id").pluck();
  const recent = db.prepare<[]>('SELECT id FROM triage_jobs ORDER BY id DESC LIMIT 20').pluck();

  // The price the user entered for the model's service, or null (no price, or no such service yet: the
  // estimate shows before the model is final, so an unknown name is not an error here).
  function priceOf(modelRef: string): number | null {
    const service = modelRef.split('/')[0] ?? '';
    return deps.services.list().find((s) => s.name === service)?.inputPrice ?? null;
  }

  function view(id: number): TriageJob {
    const r = jobRow.get(id);
    if (!r) throw new AssistantError('not_found', 'That triage job does not exist.');
    const c = counts.get(id) ?? { total: 0, done: 0, failed: 0 };
    return {
      id: r.id,
      setId: r.set_id,
      model: r.model,
      scope: JSON.parse(r.scope_json) as TriageJobScope,
      state: r.state,
      error: r.error,
      ...c,
    };
  }

  function createOver(
    setId: number,
    model: string,
    scope: TriageJobScope,
    ids: readonly number[],
  ): TriageJob {
    sets.get(setId);
    return view(insertJob(db, { setId, model, scope, ids, at: now() }));
  }

  // Per running job: `drain` stops new requests (a pause keeps every answer already on its way), `abort`
  // abandons the requests in flight (a cancel, or a pause whose requests outlast the grace).
  // `finished` settles when the run has returned, so a Resume right after a pause waits for the drain.
  const running = new Map<
    number,
    { drain: AbortController; abort: AbortController; finished: Promise<unknown> }
  >();
  // Told the job as each run ended: after a pause, that is once the answers on their way are recorded, later
  // than the Stop the page saw (the bridge's stream ends at the Stop).
  const watchers = new Set<(job: TriageJob) => void>();
  function ended(id: number): void {
    if (watchers.size === 0) return;
    const job = view(id);
    for (const w of watchers) w(job);
  }

  return {
    /** The messages a scope covers, newest first (a search: its best matches). */
    messagesIn,

    /**
     * Before a bulk run (DESIGN §9): how many messages, roughly how many input tokens, the time, the cost, from the
     * scope's measure (scope-messages.ts; the long-running app takes it on the read thread, reads/).
     */
    estimate(
      measured: ScopeMeasure,
      model?: string,
    ): { messages: number; inputTokens: number; seconds: number; cost: number | null } {
      const inputTokens = Math.ceil(measured.chars / charsPerToken);
      const price = model ? priceOf(model) : null;
      // Four requests at a time at about a second each is what the adaptive concurrency starts from.
      return {
        messages: measured.messages,
        inputTokens,
        seconds: Math.ceil(measured.messages / 4),
        cost: price === null ? null : Math.round(((inputTokens * price) / 1e6) * 10_000) / 10_000,
      };
    },

    /** A job over what a scope covers, written here: a command, the tests. */
    create(setId: number, model: string, scope: TriageScope): TriageJob {
      return createOver(setId, model, scope, messagesIn(scope));
    },

    /**
     * The same, written where the jobs are worked: the long-running app's triage thread reads the scope and writes
     * the job's items there (20,000 of them took 60 ms of this thread).
     */
    async start(setId: number, model: string, scope: TriageScope): Promise<TriageJob> {
      sets.get(setId);
      return view(await place.insert({ setId, model, scope, at: now() }));
    },

    /** A job over exactly these messages: the mail that has just arrived, for a set that runs on new mail. */
    createForNewMail(setId: number, model: string, ids: readonly number[]): TriageJob {
      return createOver(setId, model, { kind: 'new_mail', messages: ids.length }, ids);
    },

    get: view,
    list: (): TriageJob[] => (recent.all() as number[]).map(view),
    /** Jobs that were running when the app stopped: the long-running app resumes them. */
    unfinished: (): number[] => unfinished.all() as number[],

    /** Runs what is still pending; resolves when the job is done, paused, cancelled or failed. */
    async run(id: number, opts: { onProgress?: (p: TriageProgress) => void } = {}): Promise<TriageJob> {
      const before = running.get(id);
      if (before && !before.drain.signal.aborted)
        throw new AssistantError('busy', 'That triage job is already running.');
      if (before) await before.finished;
      if (running.has(id)) throw new AssistantError('busy', 'That triage job is already running.');
      const job = view(id);
      if (job.state === 'done' || job.state === 'cancelled') return job;
      let finish = () => {};
      const control = {
        drain: new AbortController(),
        abort: new AbortController(),
        finished: new Promise<void>((resolve) => {
          finish = resolve;
        }),
      };
      running.set(id, control);
      setState.run('running', null, now(), id);
      try {
        const set = sets.get(job.setId);
        // SECURITY: the consent rule (DESIGN §5) before the key is read or any mail goes anywhere.
        const access = await connectForMail(deps.services, job.model);
        const outcome = await place.work(
          {
            jobId: id,
            model: job.model,
            access: { model: access.model, connection: access.connection },
            questions: set.questions,
            messageIds: pending.all(id) as number[],
            counts: counts.get(id) ?? { total: 0, done: 0, failed: 0 },
          },
          {
            signal: control.abort.signal,
            drain: control.drain.signal,
            ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
          },
        );
        const after = jobRow.get(id)?.state;
        if (after === 'paused' || after === 'cancelled') return view(id);
        if (outcome.stopped && outcome.stopped.code !== 'cancelled')
          setState.run('failed', outcome.stopped.message, now(), id);
        else setState.run('done', null, now(), id);
        return view(id);
      } catch (e) {
        setState.run('failed', e instanceof AssistantError ? e.message : 'The triage job failed.', now(), id);
        throw e;
      } finally {
        running.delete(id);
        finish();
        ended(id);
      }
    },

    /** Every run's end, with the job as it ended, until the returned function is called. */
    watch(onEnded: (job: TriageJob) => void): () => void {
      watchers.add(onEnded);
      return () => watchers.delete(onEnded);
    },

    pause(id: number): void {
      view(id);
      setState.run('paused', null, now(), id);
      const control = running.get(id);
      if (!control) return;
      control.drain.abort();
      setTimeout(() => control.abort.abort(), pauseGraceMs).unref();
    },

    cancel(id: number): void {
      view(id);
      setState.run('cancelled', null, now(), id);
      running.get(id)?.abort.abort();
    },
  };
}
