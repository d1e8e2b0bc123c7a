// Judge question sets and their answers, and triage: rules, bulk runs and their jobs (DESIGN §9).
import { z } from 'zod';
import { Answer as JudgeAnswer, Question as JudgeQuestion } from '../judge.ts';
import { EpochMs, Id, ModelRef, SearchQuery } from './fields.ts';
import { MailView, ThreadSummary, UndoView } from './mail.ts';

// A set may run on new mail as it arrives (opt-in, with the model named when it was turned on); `error` is
// why the last new mail was not triaged (the service's consent withdrawn, say), null when it was.
const NewMailTriage = z.object({ model: z.string(), error: z.string().nullable() });
export const QuestionSetView = z.object({
  id: Id,
  name: z.string(),
  questions: z.array(JudgeQuestion),
  updatedAt: EpochMs,
  newMail: NewMailTriage.nullable(),
});
export type QuestionSetView = z.infer<typeof QuestionSetView>;
export const TriageScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('folder'), folderId: Id }).strict(),
  z.object({ kind: z.literal('query'), query: SearchQuery }).strict(),
]);
export type TriageScope = z.infer<typeof TriageScope>;
// What a job ran over: a scope the user picked, or the messages that had just arrived (a set on new mail).
export const TriageJobScope = z.union([
  TriageScope,
  z.object({ kind: z.literal('new_mail'), messages: z.number().int().nonnegative() }).strict(),
]);
export type TriageJobScope = z.infer<typeof TriageJobScope>;
export const TriageJobView = z.object({
  id: Id,
  setId: Id,
  model: z.string(),
  scope: TriageJobScope,
  state: z.enum(['running', 'paused', 'done', 'cancelled', 'failed']),
  error: z.string().nullable(),
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type TriageJobView = z.infer<typeof TriageJobView>;
// A message's answers to a question set, for the chips in the thread list. `binary`: a chat model answered,
// so every probability is 0 or 1 (DESIGN §9).
export const MessageAnswers = z.object({
  messageId: Id,
  model: z.string(),
  certainty: z.enum(['probabilities', 'binary']),
  answers: z.array(JudgeAnswer),
});
export type MessageAnswers = z.infer<typeof MessageAnswers>;
const ThreadAnswers = MessageAnswers.extend({ threadId: Id });

// Keeps a thread whose answer is a predicate's yes (a probability of at least one half) or this choice.
export const TriageOrderFilter = z
  .object({
    question: z.string().min(1).max(1000),
    value: z.union([z.string().max(1000), z.boolean()]).nullable(),
  })
  .strict();
export type TriageOrderFilter = z.infer<typeof TriageOrderFilter>;

const maxQuestionSetBytes = 1024 * 1024;
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

// A rule turns an answer into a suggested write (DESIGN §9); it never sends or deletes.
export const TriageRule = z
  .object({
    // A question's name, which has no documented length (DESIGN §9); a rule still needs a bound to fit one
    // browser-mode frame (shared/ws-protocol.ts), so a rule can name a question of up to 1,000 characters.
    question: z.string().min(1).max(1000),
    when: z.discriminatedUnion('op', [
      z.object({ op: z.literal('probability_at_least'), value: z.number().min(0).max(1) }),
      z.object({ op: z.literal('probability_below'), value: z.number().min(0).max(1) }),
      z.object({ op: z.literal('is'), value: z.union([z.string().max(255), z.boolean()]) }),
      z.object({ op: z.literal('score_at_least'), value: z.number().min(0).max(9) }),
      z.object({ op: z.literal('score_below'), value: z.number().min(0).max(10) }),
    ]),
    action: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('label'), label: z.string().trim().min(1).max(64) }),
      z.object({ kind: z.literal('move'), folder: z.string().trim().min(1).max(200) }),
      z.object({ kind: z.literal('archive') }),
      z.object({ kind: z.literal('mark_read') }),
    ]),
  })
  .strict();
export type TriageRule = z.infer<typeof TriageRule>;
const Rules = z.array(TriageRule).min(1).max(20);

export const judgeChannels = {
  'judge:sets': {
    // The user's question sets; a new database starts with the starters.
    request: z.object({}).strict(),
    response: z.array(QuestionSetView),
  },
  'judge:saveSet': {
    request: z
      .object({
        id: Id.optional(),
        name: z.string().trim().min(1).max(80),
        // No count limit: neither decision API documents one (DESIGN §9). The set is capped as a whole, so it
        // fits in one browser-mode frame (shared/ws-protocol.ts).
        questions: z
          .array(JudgeQuestion)
          .min(1)
          .refine((q) => jsonBytes(q) <= maxQuestionSetBytes, 'these questions come to more than 1 MiB.')
          .meta({ maxJsonBytes: maxQuestionSetBytes }),
      })
      .strict(),
    response: QuestionSetView,
  },
  'judge:removeSet': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
  'judge:addStarters': {
    // The five starter questions as a new set, whenever the user wants them (a name not yet taken).
    request: z.object({}).strict(),
    response: QuestionSetView,
  },
  'judge:answers': {
    // Cached answers (any model, the newest) for messages with an answer to every question of the set.
    request: z.object({ setId: Id, messageIds: z.array(Id).min(1).max(500) }).strict(),
    response: z.array(MessageAnswers),
  },
  'judge:threadAnswers': {
    // For the thread list: per thread, the answers of its newest message that has them.
    request: z.object({ setId: Id, threadIds: z.array(Id).min(1).max(500) }).strict(),
    response: z.array(ThreadAnswers),
  },
  'judge:orderedThreads': {
    // Every conversation of a folder or a view (as mail:threads lists them) with an answer, sorted and filtered
    // by it in SQL and paged: highest first, refusals last, ties newest first (DESIGN §9). `answers`: the
    // page's chips, as judge:threadAnswers gives them.
    request: z
      .object({
        setId: Id,
        folderId: Id.nullable().default(null),
        view: MailView.default('all'),
        sortBy: z.string().min(1).max(1000).nullable().default(null),
        filter: TriageOrderFilter.nullable().default(null),
        offset: z.number().int().nonnegative().max(10_000_000).default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict()
      .refine((r) => r.sortBy !== null || r.filter !== null, 'name a question to sort or filter by.'),
    response: z.object({
      total: z.number().int().nonnegative(),
      threads: z.array(ThreadSummary),
      answers: z.array(ThreadAnswers),
    }),
  },
  'judge:setNewMail': {
    // Runs the set on new mail as it arrives (a model named), or no longer (null). Turning it on needs the
    // service's consent for mail, as a job does; only mail stored after this moment is asked about.
    request: z.object({ setId: Id, model: ModelRef.nullable() }).strict(),
    response: QuestionSetView,
  },
} as const;

export const triageChannels = {
  'triage:suggest': {
    // The batch approval card: per rule, what it would do to which messages (those with answers to the set).
    request: z.object({ setId: Id, scope: TriageScope, rules: Rules }).strict(),
    response: z.array(
      z.object({
        rule: z.number().int().nonnegative(),
        action: z.string(),
        messages: z.array(z.object({ id: Id, subject: z.string(), from: z.string() })),
      }),
    ),
  },
  'triage:apply': {
    // Carries out what the user approved on the card: undoable writes, queued for the mail server.
    request: z
      .object({
        setId: Id,
        scope: TriageScope,
        rules: Rules,
        approve: z
          .array(
            z.object({ rule: z.number().int().nonnegative(), messageIds: z.array(Id).min(1).max(10_000) }),
          )
          .min(1)
          .max(20),
      })
      .strict(),
    response: z.object({ applied: z.number().int().nonnegative(), undo: z.array(UndoView) }),
  },
  'triage:estimate': {
    // Before a bulk run; contacts nothing. With a model whose service has a price: the cost in US dollars.
    request: z.object({ setId: Id, scope: TriageScope, model: ModelRef.optional() }).strict(),
    response: z.object({
      messages: z.number().int().nonnegative(),
      inputTokens: z.number().int().nonnegative(),
      seconds: z.number().int().nonnegative(),
      cost: z.number().nonnegative().nullable(),
    }),
  },
  'triage:start': {
    // Progress streams as triage_progress, then triage_done; Stop pauses (run:cancel) and keeps what is done.
    request: z.object({ setId: Id, model: ModelRef, scope: TriageScope }).strict(),
    response: z.object({ job: TriageJobView, streamId: z.string() }),
  },
  'triage:jobs': {
    request: z.object({}).strict(),
    response: z.array(TriageJobView),
  },
  'triage:resume': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'triage:cancel': {
    request: z.object({ id: Id }).strict(),
    response: TriageJobView,
  },
} as const;
