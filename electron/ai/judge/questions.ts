// Skimmer's judge questions and answers (DESIGN §9), in the OpenAI Decisions shape (wire-formats §4.1, §4.3)
// so a question file the user writes for the CLI is exactly the `questions` array of that API, and an answer
// reads the same whichever format produced it. No I/O: questions are checked before anything is sent, and
// every answer is checked against the question it claims to answer before anyone sees it.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  type Answer,
  type ChoiceQuestion,
  ChoiceValue,
  Question,
  type ScoreQuestion,
} from '../../../shared/judge.ts';
import { AiFailure } from '../protocol/errors.ts';
import { redact } from '../protocol/redact.ts';

export {
  Answer,
  ChoiceValue,
  Question,
} from '../../../shared/judge.ts';

// The limits both services document, and nothing stricter: a question the real API would answer is never
// refused here (DESIGN §9 has the table of each rule and its source). Choices are 2–255 and unique (OpenAI's
// API reference: "Provide between 2 and 255 choices. Each choice must be unique."; TypeSafe: "up to 255
// options"), levels 2–10 (TypeSafe's docs: at least two, at most 10; OpenAI's spec as pydantic-ai reads it:
// an 11th is a 400). Names, instructions and the number of questions have no documented bound in either API
// (names are any string: `Ticket.urgent` and `customer.vip` were answered), so none is set here: an
// oversized request is the service's to refuse, and its refusal reaches the user as a sentence.
const questionLimits = {
  minChoices: 2,
  maxChoices: 255,
  minLevels: 2,
  maxLevels: 10,
} as const;

export type QuestionsCheck = { ok: true } | { ok: false; reason: string };

/** Whether these questions may be asked; when not, one sentence of ours naming what is wrong. */
export function validateQuestions(questions: readonly Question[]): QuestionsCheck {
  const reason = questionsProblem(questions);
  return reason === null ? { ok: true } : { ok: false, reason };
}

function questionsProblem(questions: readonly Question[]): string | null {
  // System One's `questions` map has `minProperties: 1`; an empty OpenAI list would answer nothing.
  if (questions.length === 0) return 'Ask at least one question.';
  const names = new Set<string>();
  for (const [i, q] of questions.entries()) {
    // Skimmer's own: answers, the cache and rules find a question by its name (an empty one is what a form
    // left blank sends). Any non-empty string will do, as both services take any string.
    if (q.name.length === 0) return `Question ${i + 1} has no name.`;
    // System One keys its questions and answers by name, and OpenAI's answers are matched by it (§4.3).
    if (names.has(q.name)) return `Two questions are named "${q.name}"; each name must be unique.`;
    names.add(q.name);
    const problem = q.type === 'choice' ? choiceProblem(q) : q.type === 'score' ? scoreProblem(q) : null;
    if (problem) return problem;
  }
  return null;
}

function choiceProblem(q: z.infer<typeof ChoiceQuestion>): string | null {
  const l = questionLimits;
  if (q.choices.length < l.minChoices || q.choices.length > l.maxChoices) {
    return `Question "${q.name}" needs between ${l.minChoices} and ${l.maxChoices} choices; it has ${q.choices.length}.`;
  }
  const seen = new Set<string>();
  for (const c of q.choices) {
    const key = choiceKey(c.value);
    if (seen.has(key)) return `Question "${q.name}" offers the choice ${showChoice(c.value)} twice.`;
    seen.add(key);
  }
  return null;
}

function scoreProblem(q: z.infer<typeof ScoreQuestion>): string | null {
  const l = questionLimits;
  if (q.levels.length < l.minLevels || q.levels.length > l.maxLevels) {
    return `Question "${q.name}" needs between ${l.minLevels} and ${l.maxLevels} levels; it has ${q.levels.length}.`;
  }
  return null;
}

// Typed identity of a choice value: the text "true" and the yes/no value true are two choices.
function choiceKey(value: ChoiceValue): string {
  return `${typeof value}:${String(value)}`;
}

/** A choice as the user reads it: text in quotes, a boolean bare (so "true" and true look different). */
export function showChoice(value: ChoiceValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

// ---------------------------------------------------------------------------------------------------
// Question files

export type QuestionFileResult = { ok: true; questions: Question[] } | { ok: false; reason: string };

/**
 * Reads a question file: the `questions` array of a Decisions request, bare or inside an object (so a whole
 * request body can be pasted; its other fields are ignored). Checks the shape, then the rules above.
 */
export function parseQuestionFile(json: unknown): QuestionFileResult {
  let list: unknown;
  if (Array.isArray(json)) list = json;
  else if (json !== null && typeof json === 'object' && 'questions' in json) list = json.questions;
  else {
    return {
      ok: false,
      reason: 'A question file is a list of questions, or an object with a "questions" list.',
    };
  }
  const parsed = z.array(Question).safeParse(list);
  if (!parsed.success) return { ok: false, reason: describeFileIssue(parsed.error.issues) };
  const checked = validateQuestions(parsed.data);
  return checked.ok ? { ok: true, questions: parsed.data } : checked;
}

// Names the first problem by question and field; never echoes the value that was written.
function describeFileIssue(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (!first) return 'The question file is not valid.';
  const [index, ...field] = first.path;
  if (typeof index !== 'number') return `The question file is not valid: ${first.message}`;
  const where = field.length > 0 ? ` (${field.map(String).join('.')})` : '';
  return `Question ${index + 1} is not valid${where}: ${first.message}`.slice(0, 300);
}

// ---------------------------------------------------------------------------------------------------
// Question hash

/**
 * A stable id for a question, for caching its answers by (message content hash, question hash, model)
 * (DESIGN §9): sha256 of a canonical JSON of what is asked — type, name, instructions and the options in
 * their order (a level's index is its meaning). Key order, absent descriptions and fields a file may carry
 * beyond these never change it; any change to what the model is asked does.
 */
export function questionHash(question: Question): string {
  return createHash('sha256')
    .update(canonicalJson(askedQuestion(question)))
    .digest('hex');
}

/**
 * What a question asks, field by field: type, name, instructions and its options with their descriptions, in
 * the Decisions shape (§4.1). It is both what the OpenAI Decisions format sends (decisions.ts) and what the
 * question hash covers, so the cache key changes exactly when what the model is asked does. Nothing a
 * question object might carry beyond these documented fields is kept. A predicate has no field for yes/no
 * meanings; none are invented.
 */
export function askedQuestion(q: Question): Record<string, unknown> {
  const base = { type: q.type, name: q.name, instructions: q.instructions };
  if (q.type === 'choice') {
    return { ...base, choices: q.choices.map((c) => ({ value: c.value, ...described(c.description) })) };
  }
  if (q.type === 'score') {
    return { ...base, levels: q.levels.map((l) => ({ label: l.label, ...described(l.description) })) };
  }
  return base;
}

function described(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

// JSON with object keys sorted at every depth; arrays keep their order.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------------
// Answers

const Probability = z.number().min(0).max(1); // zod 4 refuses NaN and ±Infinity (JSON's 1e999) itself
const Name = z.string();

// What a format's mapper hands over: the neutral shape with every value still unchecked. Unknown fields are
// dropped; `null` optionals count as absent (SDKs serialise unset fields as null); a score level's label is
// not read, because it only echoes ours (System One's `legend` echoes the criteria text, not the label).
const Candidate = z.discriminatedUnion('type', [
  z.object({ type: z.literal('predicate'), name: Name, probability: Probability }),
  z.object({
    type: z.literal('choice'),
    name: Name,
    choice: ChoiceValue,
    confidence: Probability.nullish(),
    probabilities: z.array(z.object({ value: ChoiceValue, probability: Probability })).nullish(),
  }),
  z.object({
    type: z.literal('score'),
    name: Name,
    score: z.number(),
    confidence: Probability.nullish(),
    probabilities: z.array(z.object({ value: z.number().int(), probability: Probability })).nullish(),
  }),
  z.object({ type: z.literal('refusal'), name: Name }),
]);
type Candidate = z.infer<typeof Candidate>;

export type MissingAnswers = 'refusal' | 'bad_answer';

/**
 * Checks answers against the questions they claim to answer and returns them in question order. Every
 * probability and confidence is a finite number in [0, 1]; a choice is one of the options, typed; a score
 * lies within [0, levels − 1]; probability lists name only known options or levels, each once; every answer
 * names a question that was asked, of its type, once. A question nobody answered is a refusal only where the
 * format says an absent answer means one (`missing: 'refusal'`, System One, wire-formats §5.3); elsewhere a
 * refusal is explicit (§4.3). Anything else throws AiFailure('bad_answer').
 */
export function validateAnswers(
  questions: readonly Question[],
  answers: readonly unknown[],
  opts: { missing?: MissingAnswers } = {},
): Answer[] {
  // A Map, not an object: `constructor` and `__proto__` are valid question names.
  const byName = new Map(questions.map((q) => [q.name, q]));
  const got = new Map<string, Answer>();
  for (const [i, raw] of answers.entries()) {
    const parsed = Candidate.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.map(String).join('.')})` : '';
      throw badAnswer(`answer ${i + 1}${where}: ${issue?.message ?? 'not an answer'}`);
    }
    const a = parsed.data;
    const q = byName.get(a.name);
    if (!q) throw badAnswer(`answer ${i + 1} names a question that was not asked`);
    if (got.has(a.name)) throw badAnswer(`"${a.name}" was answered more than once`);
    if (a.type !== 'refusal' && a.type !== q.type) {
      throw badAnswer(`"${a.name}" was asked as a ${q.type} question but answered as a ${a.type}`);
    }
    got.set(a.name, checked(q, a));
  }
  return questions.map((q) => {
    const answer = got.get(q.name);
    if (answer) return answer;
    if (opts.missing === 'refusal') return { type: 'refusal', name: q.name };
    throw badAnswer(`"${q.name}" was not answered`);
  });
}

function checked(q: Question, a: Candidate): Answer {
  if (a.type === 'refusal') return { type: 'refusal', name: a.name };
  if (a.type === 'predicate') return { type: 'predicate', name: a.name, probability: a.probability };
  if (a.type === 'choice' && q.type === 'choice') {
    const known = new Set(q.choices.map((c) => choiceKey(c.value)));
    if (!known.has(choiceKey(a.choice))) throw badAnswer(`"${a.name}": the choice is not one of the options`);
    const probabilities = a.probabilities ?? undefined;
    if (probabilities) {
      const listed = new Set<string>();
      for (const p of probabilities) {
        const key = choiceKey(p.value);
        if (!known.has(key))
          throw badAnswer(`"${a.name}": a probability names an option that was not offered`);
        if (listed.has(key)) throw badAnswer(`"${a.name}": an option has more than one probability`);
        listed.add(key);
      }
    }
    return {
      type: 'choice',
      name: a.name,
      choice: a.choice,
      ...(a.confidence == null ? {} : { confidence: a.confidence }),
      ...(probabilities
        ? { probabilities: probabilities.map((p) => ({ value: p.value, probability: p.probability })) }
        : {}),
    };
  }
  if (a.type === 'score' && q.type === 'score') {
    const top = q.levels.length - 1;
    if (!(a.score >= 0 && a.score <= top)) throw badAnswer(`"${a.name}": the score is outside the levels`);
    const probabilities = a.probabilities ?? undefined;
    if (probabilities) {
      const listed = new Set<number>();
      for (const p of probabilities) {
        if (p.value < 0 || p.value > top)
          throw badAnswer(`"${a.name}": a probability names a level that does not exist`);
        if (listed.has(p.value)) throw badAnswer(`"${a.name}": a level has more than one probability`);
        listed.add(p.value);
      }
    }
    return {
      type: 'score',
      name: a.name,
      score: a.score,
      ...(a.confidence == null ? {} : { confidence: a.confidence }),
      ...(probabilities
        ? {
            probabilities: probabilities.map((p) => ({
              value: p.value,
              label: q.levels[p.value]?.label ?? '',
              probability: p.probability,
            })),
          }
        : {}),
    };
  }
  // validateAnswers compared the types already; reaching here is a bug, still reported as a bad answer.
  throw badAnswer(`"${a.name}" does not match its question`);
}

// SECURITY: the detail is ours, but it names questions and carries zod's words about the service's values;
// it goes through redaction (key shapes, 200 characters) like any text that may reach the user.
export function badAnswer(detail: string): AiFailure {
  return new AiFailure('bad_answer', { providerDetail: redact(detail) });
}
