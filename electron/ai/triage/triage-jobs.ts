// Triage jobs (issue 6): a question set run over a folder, a search or the whole mailbox, persisted item by
// item (`triage_jobs`, `triage_items`), so pause, resume, cancel and a restart in the middle lose nothing and
// ask nothing twice (answers are cached as well). Owns both tables.
import type { TriageJobScope, TriageScope } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import { splitModelRef } from '../model-access.ts';
import { charsPerToken } from '../protocol/budget.ts';
import { prepareAudit } from '../safety/audit.ts';
import type { prepareServices } from '../services.ts';
import { type JudgeOptions, type JudgeResult, judgeMessages } from './judge-messages.ts';
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
export type TriageProgress = {
  jobId: number;
  done: number;
  failed: number;
  total: number;
  perSecond: number;
  etaSeconds: number | null;
};

/** A paused job waits this long for the answers already on their way before abandoning them. */
const pauseGraceMs = 10_000;

type Deps = { db: Db; services: ReturnType<typeof prepareServices> };

export function prepareTriageJobs(deps: Deps, now: () => number = Date.now) {
  const { db } = deps;
  const sets = prepareQuestionSets(db, now);
  const messagesIn = prepareScopeMessages(db);
  const insertJob = db.prepare<[number, string, string, number, number]>(
    "INSERT INTO triage_jobs (set_id, model, scope_json, state, created_at, updated_at) VALUES (?, ?, ?, 'running', ?, ?)",
  );
  const insertItem = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO triage_items (job_id, message) VALUES (?, ?)',
  );
  const setState = db.prepare<[JobState, string | null, number, number]>(
    'UPDATE triage_jobs SET state = ?, error = ?, updated_at = ? WHERE id = ?',
  );
  const setItem = db.prepare<['done' | 'failed', string | null, number, number]>(
    'UPDATE triage_items SET state = ?, error = ? WHERE job_id = ? AND message = ?',
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

  const subjectOf = db.prepare<[number]>('SELECT subject FROM messages WHERE id = ?').pluck();
  // Every question asked of a service goes to the audit log with the model and the time (issue 6): what was
  // asked about which message, and what came back. Cached answers asked nothing and are not logged again.
  async function auditFor(modelRef: string) {
    const serviceId = deps.services.idByName(splitModelRef(modelRef).service);
    const { key } = await deps.services.connection(serviceId);
    // SECURITY: summaries hold text from the mail (its subject); the service's key is masked should it be there.
    const log = prepareAudit(db, () => (key ? [key] : []), now);
    return (jobId: number, model: string, questions: number, r: JudgeResult) => {
      const subject = String(subjectOf.get(r.messageId) ?? '').slice(0, 120);
      log.record({
        conversationId: null,
        jobId,
        callId: `triage-${jobId}-${r.messageId}`,
        tool: 'judge',
        effect: 'read',
        args: { messageId: r.messageId, model, questions },
        provenance: { fromUntrusted: [], notNamedByUser: [] },
        decision: 'allowed',
        decidedBy: 'user',
        resultSummary: r.ok
          ? `Answered ${questions} question${questions === 1 ? '' : 's'} about “${subject}” with ${r.answeredBy?.model ?? model}${r.answeredBy?.requestId ? ` (request ${r.answeredBy.requestId})` : ''}.`
          : `Could not answer about “${subject}”: ${r.message}`,
        isError: !r.ok,
      });
    };
  }

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
    const id = db.transaction(() => {
      const jobId = Number(insertJob.run(setId, model, JSON.stringify(scope), now(), now()).lastInsertRowid);
      for (const m of ids) insertItem.run(jobId, m);
      return jobId;
    })();
    return view(id);
  }

  // Per running job: `drain` stops new requests (a pause keeps every answer already on its way), `abort`
  // abandons the requests in flight (a cancel, or a pause whose requests outlast the grace).
  // `finished` settles when the run has returned, so a Resume right after a pause waits for the drain.
  const running = new Map<
    number,
    { drain: AbortController; abort: AbortController; finished: Promise<unknown> }
  >();

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

    create(setId: number, model: string, scope: TriageScope): TriageJob {
      return createOver(setId, model, scope, messagesIn(scope));
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
    async run(
      id: number,
      opts: Pick<JudgeOptions, 'fetch' | 'sleep'> & {
        onProgress?: (p: TriageProgress) => void;
        onResult?: (r: JudgeResult) => void;
      } = {},
    ): Promise<TriageJob> {
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
      const started = now();
      let doneHere = 0;
      // Counted here rather than by a query per answer, which would make a big job quadratic.
      const c = { ...(counts.get(id) ?? { total: 0, done: 0, failed: 0 }) };
      try {
        const set = sets.get(job.setId);
        const audit = await auditFor(job.model);
        const result = await judgeMessages(
          deps,
          { model: job.model, questions: set.questions, messageIds: pending.all(id) as number[] },
          {
            signal: control.abort.signal,
            drain: control.drain.signal,
            now,
            ...(opts.fetch ? { fetch: opts.fetch } : {}),
            ...(opts.sleep ? { sleep: opts.sleep } : {}),
            onResult: (r) => {
              setItem.run(r.ok ? 'done' : 'failed', r.ok ? null : r.message, id, r.messageId);
              doneHere += 1;
              if (r.ok) c.done += 1;
              else c.failed += 1;
              if (!r.ok || r.answeredBy) audit(id, job.model, set.questions.length, r);
              opts.onResult?.(r);
              const seconds = Math.max(0.001, (now() - started) / 1000);
              const perSecond = doneHere / seconds;
              const left = c.total - c.done - c.failed;
              opts.onProgress?.({
                jobId: id,
                done: c.done,
                failed: c.failed,
                total: c.total,
                perSecond: Math.round(perSecond * 10) / 10,
                etaSeconds: perSecond > 0 ? Math.round(left / perSecond) : null,
              });
            },
          },
        );
        const after = jobRow.get(id)?.state;
        if (after === 'paused' || after === 'cancelled') return view(id);
        if (result.stopped && result.stopped.code !== 'cancelled')
          setState.run('failed', result.stopped.message, now(), id);
        else setState.run('done', null, now(), id);
        return view(id);
      } catch (e) {
        setState.run('failed', e instanceof AssistantError ? e.message : 'The triage job failed.', now(), id);
        throw e;
      } finally {
        running.delete(id);
        finish();
      }
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
