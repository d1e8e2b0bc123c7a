// Judge question sets and their answers, and triage: rules, bulk runs and their jobs (DESIGN §9).
import { z } from 'zod';
import { Answer as JudgeAnswer, Question as JudgeQuestion } from '../judge.ts';
import { EpochMs, Id, ModelRef, SearchQuery } from './fields.ts';
import { UndoView } from './mail.ts';

export const QuestionSetView = z.object({
  id: Id,
  name: z.string(),
  questions: z.array(JudgeQuestion),
  updatedAt: EpochMs,
});
export type QuestionSetView = z.infer<typeof QuestionSetView>;
export const TriageScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('folder'), folderId: Id }).strict(),
  z.object({ kind: z.literal('query'), query: SearchQuery }).strict(),
]);
export type TriageScope = z.infer<typeof TriageScope>;
export const TriageJobView = z.object({
  id: Id,
  setId: Id,
  model: z.string(),
  scope: TriageScope,
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
    response: z.array(MessageAnswers.extend({ threadId: Id })),
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
