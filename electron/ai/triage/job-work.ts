// What a triage job's run does between its start and its end (issue 6): asks about the pending messages, records
// each item as its answer comes, audits every question sent, and reports progress. The long-running app does it
// on the triage thread (triage-thread.ts, DESIGN §3), so judging, storing and auditing never hold the bridge; a
// command and most tests do it on their own thread (`workHere`). triage-jobs.ts owns the job and its state; this
// only writes the job's items, the answer cache and the audit log.
import type { TriageJobScope, TriageScope } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import type { Question } from '../judge/questions.ts';
import type { ModelAccess } from '../model-access.ts';
import { prepareAudit } from '../safety/audit.ts';
import { type JudgeOptions, type JudgeResult, judgeMessages } from './judge-messages.ts';
import { prepareScopeMessages } from './scope-messages.ts';

export type TriageProgress = {
  jobId: number;
  done: number;
  failed: number;
  total: number;
  perSecond: number;
  etaSeconds: number | null;
};

/** One run of a job: everything it needs, so it can cross to another thread as it is. */
export type JobWork = {
  jobId: number;
  /** As the user named it (`service/model`): the cache's key and the audit's. */
  model: string;
  /** SECURITY: the service's connection with its key, read on the main thread after the consent check. */
  access: Pick<ModelAccess, 'model' | 'connection'>;
  questions: Question[];
  messageIds: number[];
  /** The job's items before this run. */
  counts: { total: number; done: number; failed: number };
};
export type WorkOutcome = { stopped: { code: string; message: string } | null };
export type WorkControl = {
  /** Stop now: the requests in flight are abandoned. */
  signal: AbortSignal;
  /** Stop starting: the requests in flight still finish and are recorded. */
  drain: AbortSignal;
  onProgress?: (p: TriageProgress) => void;
};
/** Where a job's runs are worked: on this thread (`workHere`) or on the triage thread. */
type JobRunner = (work: JobWork, control: WorkControl) => Promise<WorkOutcome>;

/** A new job: over these messages, or (`ids` left out) over what its scope covers, read where it is written. */
export type NewJob = {
  setId: number;
  model: string;
  scope: TriageJobScope;
  ids?: readonly number[];
  at: number;
};
/** Where jobs are made and worked: this thread, or the triage thread (triage-thread.ts). */
export type JobPlace = { work: JobRunner; insert: (job: NewJob) => number | Promise<number> };

/**
 * Writes a job and its items in one transaction; its id. A job over a whole mailbox is tens of thousands of items
 * (20,000: about 60 ms), which is why the long-running app writes it on the triage thread.
 */
export function insertJob(db: Db, job: NewJob): number {
  const ids = job.ids ?? prepareScopeMessages(db)(job.scope as TriageScope);
  return db.transaction(() => {
    const id = Number(
      db
        .prepare<[number, string, string, number, number]>(
          "INSERT INTO triage_jobs (set_id, model, scope_json, state, created_at, updated_at) VALUES (?, ?, ?, 'running', ?, ?)",
        )
        .run(job.setId, job.model, JSON.stringify(job.scope), job.at, job.at).lastInsertRowid,
    );
    // One statement for all the items (a JSON array of ids): a row at a time took twice as long.
    db.prepare<[number, string]>(
      'INSERT OR IGNORE INTO triage_items (job_id, message) SELECT ?, value FROM json_each(?)',
    ).run(id, JSON.stringify(ids));
    return id;
  })();
}

type HereOptions = Pick<JudgeOptions, 'fetch' | 'sleep'> & { now?: () => number };

export async function workOnJob(
  db: Db,
  work: JobWork,
  control: WorkControl,
  opts: HereOptions = {},
): Promise<WorkOutcome> {
  const now = opts.now ?? Date.now;
  const setItem = db.prepare<['done' | 'failed', string | null, number, number]>(
    'UPDATE triage_items SET state = ?, error = ? WHERE job_id = ? AND message = ?',
  );
  const mail = prepareMessageReads(db);
  const key = work.access.connection.key;
  // SECURITY: summaries hold text from the mail (its subject); the service's key is masked should it be there.
  const log = prepareAudit(db, () => (key ? [key] : []), now);
  const questions = work.questions.length;
  // Every question asked of a service goes to the audit log with the model and the time (issue 6): what was
  // asked about which message, and what came back. Cached answers asked nothing and are not logged again.
  const audit = (r: JudgeResult) => {
    const subject = (mail.headline(r.messageId)?.subject ?? '').slice(0, 120);
    log.record({
      conversationId: null,
      jobId: work.jobId,
      callId: `triage-${work.jobId}-${r.messageId}`,
      tool: 'judge',
      effect: 'read',
      args: { messageId: r.messageId, model: work.model, questions },
      provenance: { fromUntrusted: [], notNamedByUser: [] },
      decision: 'allowed',
      decidedBy: 'user',
      resultSummary: r.ok
        ? `Answered ${questions} question${questions === 1 ? '' : 's'} about “${subject}” with ${r.answeredBy?.model ?? work.model}${r.answeredBy?.requestId ? ` (request ${r.answeredBy.requestId})` : ''}.`
        : `Could not answer about “${subject}”: ${r.message}`,
      isError: !r.ok,
    });
  };
  // The item, its audit row: one commit an answer, not two.
  const record = db.transaction((r: JudgeResult) => {
    setItem.run(r.ok ? 'done' : 'failed', r.ok ? null : r.message, work.jobId, r.messageId);
    if (!r.ok || r.answeredBy) audit(r);
  });

  const started = now();
  let doneHere = 0;
  // Counted here rather than by a query per answer, which would make a big job quadratic.
  const c = { ...work.counts };
  const result = await judgeMessages(
    { db },
    { model: work.model, access: work.access, questions: work.questions, messageIds: work.messageIds },
    {
      signal: control.signal,
      drain: control.drain,
      now,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      onResult: (r) => {
        record(r);
        doneHere += 1;
        if (r.ok) c.done += 1;
        else c.failed += 1;
        const seconds = Math.max(0.001, (now() - started) / 1000);
        const perSecond = doneHere / seconds;
        const left = c.total - c.done - c.failed;
        control.onProgress?.({
          jobId: work.jobId,
          done: c.done,
          failed: c.failed,
          total: c.total,
          perSecond: Math.round(perSecond * 10) / 10,
          etaSeconds: perSecond > 0 ? Math.round(left / perSecond) : null,
        });
      },
    },
  );
  return { stopped: result.stopped };
}

/** Makes and works jobs on this thread: a command, the tests (which may give their own fetch, sleep and clock). */
export function workHere(db: Db, opts: HereOptions = {}): JobPlace {
  return {
    work: (work, control) => workOnJob(db, work, control, opts),
    insert: (job) => insertJob(db, job),
  };
}
