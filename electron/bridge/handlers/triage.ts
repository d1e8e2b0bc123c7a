// The judge and triage channels of the bridge (issue 6): question sets, cached answers for the thread list's
// chips, estimates, and jobs whose progress streams to the page. Stop on a job's stream pauses it: what is
// done stays done, and Resume carries on.
import type { MessageAnswers, TriageScope } from '../../../shared/contract.ts';
import type { Answer } from '../../../shared/judge.ts';
import { prepareAudit } from '../../ai/safety/audit.ts';
import type { prepareServices } from '../../ai/services.ts';
import { prepareJudgeAnswers } from '../../ai/triage/answers.ts';
import { prepareQuestionSets } from '../../ai/triage/question-sets.ts';
import { describeAction, type Rule, suggest } from '../../ai/triage/rules.ts';
import type { prepareTriageJobs } from '../../ai/triage/triage-jobs.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import { prepareMailActions } from '../../mail/store/undo.ts';
import type { Handlers } from '../dispatch.ts';
import type { StreamHub } from '../streams.ts';

type Deps = { db: Db; services: ReturnType<typeof prepareServices>; streams: StreamHub; log: Log };
type Jobs = ReturnType<typeof prepareTriageJobs>;

export function triageHandlers(
  deps: Deps,
  jobs: Jobs,
): Pick<
  Handlers,
  | 'judge:sets'
  | 'judge:saveSet'
  | 'judge:removeSet'
  | 'judge:addStarters'
  | 'judge:answers'
  | 'judge:threadAnswers'
  | 'triage:suggest'
  | 'triage:apply'
  | 'triage:estimate'
  | 'triage:start'
  | 'triage:jobs'
  | 'triage:resume'
  | 'triage:cancel'
> {
  const sets = prepareQuestionSets(deps.db);
  const answers = prepareJudgeAnswers(deps.db);
  const hashOf = deps.db.prepare<[number], { content_hash: string }>(
    'SELECT content_hash FROM messages WHERE id = ?',
  );
  const threadMessages = deps.db.prepare<[number], { id: number; content_hash: string }>(
    'SELECT id, content_hash FROM messages WHERE thread_id = ? ORDER BY date DESC, id DESC',
  );

  // A rule's writes go to the audit log as the user's approved writes; they hold no key to mask.
  const rulesAudit = prepareAudit(deps.db, () => []);
  const summaryOf = deps.db.prepare<[number], { subject: string; from_text: string }>(
    'SELECT subject, from_text FROM messages WHERE id = ?',
  );
  // Per rule, the messages of the scope whose newest answers to the set meet it.
  function suggestFor(setId: number, scope: TriageScope, rules: readonly Rule[]): number[][] {
    const set = sets.get(setId);
    const known = new Map<number, Answer[]>();
    for (const id of jobs.messagesIn(scope)) {
      const hash = hashOf.get(id)?.content_hash;
      const found = hash ? answers.newest(hash, set.questions) : null;
      if (found) known.set(id, found.answers);
    }
    return suggest(rules, known);
  }

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
    'judge:answers': (r) => {
      const set = sets.get(r.setId);
      const out: MessageAnswers[] = [];
      for (const messageId of r.messageIds) {
        const hash = hashOf.get(messageId)?.content_hash;
        const found = hash ? answers.newest(hash, set.questions) : null;
        if (found) out.push({ messageId, ...found });
      }
      return out;
    },
    'judge:threadAnswers': (r) => {
      const set = sets.get(r.setId);
      const out: (MessageAnswers & { threadId: number })[] = [];
      for (const threadId of r.threadIds) {
        for (const m of threadMessages.all(threadId)) {
          const found = answers.newest(m.content_hash, set.questions);
          if (found) {
            out.push({ threadId, messageId: m.id, ...found });
            break;
          }
        }
      }
      return out;
    },
    'triage:suggest': (r) => {
      const matched = suggestFor(r.setId, r.scope, r.rules);
      return r.rules.map((rule, i) => ({
        rule: i,
        action: describeAction(rule.action),
        messages: (matched[i] ?? []).map((id) => {
          const m = summaryOf.get(id) as { subject: string; from_text: string };
          return { id, subject: m.subject, from: m.from_text };
        }),
      }));
    },
    'triage:apply': (r) => {
      const matched = suggestFor(r.setId, r.scope, r.rules);
      const actions = prepareMailActions(deps.db);
      const before = new Set(actions.undoable(50).map((u) => u.id));
      let applied = 0;
      for (const a of r.approve) {
        const rule = r.rules[a.rule];
        // SECURITY: only what the rule suggested right now is applied, whatever else the page names.
        const allowed = new Set(matched[a.rule] ?? []);
        const ids = a.messageIds.filter((id) => allowed.has(id));
        if (!rule || ids.length === 0) continue;
        const act = rule.action;
        // An unknown folder fails as `invalid_request`, in the mail module's own sentence (bridge/errors.ts).
        if (act.kind === 'label') actions.label(ids, [act.label], []);
        else if (act.kind === 'move') actions.moveToFolder(ids, act.folder);
        else if (act.kind === 'archive') actions.moveToSpecial(ids, 'archive');
        else actions.markRead(ids, true);
        applied += ids.length;
        rulesAudit.record({
          conversationId: null,
          callId: `rule-${Date.now()}-${a.rule}`,
          tool: 'triage_rule',
          effect: 'write',
          args: { rule, messageIds: ids },
          provenance: { fromUntrusted: [], notNamedByUser: [] },
          decision: 'approved',
          decidedBy: 'user',
          resultSummary: `${describeAction(act)}: ${ids.length} message${ids.length === 1 ? '' : 's'} (undoable).`,
          isError: false,
        });
      }
      return { applied, undo: actions.undoable(50).filter((u) => !before.has(u.id)) };
    },
    'triage:estimate': (r) => jobs.estimate(r.setId, r.scope, r.model),
    'triage:start': (r) => {
      const job = jobs.create(r.setId, r.model, r.scope);
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
