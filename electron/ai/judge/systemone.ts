// TypeSafe "System One" (`POST {base}/systemone`, wire-formats §5), as TypeSafe, Fireworks, Upstage, Databricks
// and the local servers serve it (§5.1). The only file that knows this wire shape. It differs from the OpenAI
// shape Skimmer's questions use in every container (mapper table §5.6), and each difference is a place where a
// translation can give a wrong answer without any error; the comments name them.
import type { AiErrorCode } from '../protocol/errors.ts';
import { httpErrorCode } from '../providers/stream-parts.ts';
import {
  type Answer,
  badAnswer,
  type ChoiceValue,
  type Question,
  showChoice,
  validateAnswers,
} from './questions.ts';

// §5.1; hosts other than TypeSafe that speak this shape may only send the common header.
/** @public judge.ts reaches it through the wire format's module, which knip does not follow. */
export const requestIdHeaders = ['x-typesafe-request-id', 'x-request-id'] as const;

// A choice is sent as a label, and labels are strings (§5.6): a boolean choice goes as "true"/"false" and
// comes back as the boolean. A question offering both the text "true" and the boolean true would send one
// label for two options, and no answer could say which was meant.
export function checkQuestions(questions: readonly Question[]): string | null {
  for (const q of questions) {
    if (q.type !== 'choice') continue;
    const labels = new Map<string, ChoiceValue>();
    for (const c of q.choices) {
      const other = labels.get(label(c.value));
      if (other !== undefined) {
        return `Question "${q.name}" offers both ${showChoice(other)} and ${showChoice(c.value)}, which System One cannot tell apart.`;
      }
      labels.set(label(c.value), c.value);
    }
  }
  return null;
}

// The yes/no question is `noul` here, `predicate` in the OpenAI shape (§5.6).
const wireType: Record<Question['type'], string> = { predicate: 'noul', choice: 'choice', score: 'score' };

function label(value: ChoiceValue): string {
  return String(value);
}

/**
 * The request body (§5.2). SECURITY: the mail is the `state` and nothing else; instructions are the user's.
 * `questions` is an object keyed by name, built with Object.fromEntries so a question named `__proto__` is an
 * own key that JSON.stringify sends (an assignment would set the prototype and drop the question silently).
 * Key order is not question order when a name looks like an integer ("7" sorts first); answers are put back
 * in question order by name, so it does not matter.
 */
export function buildRequest(
  model: string,
  input: string,
  questions: readonly Question[],
): Record<string, unknown> {
  return {
    model,
    state: input,
    questions: Object.fromEntries(questions.map((q) => [q.name, wireQuestion(q)])),
  };
}

function wireQuestion(q: Question): Record<string, unknown> {
  // `noul.criteria` is optional and Skimmer's predicate has no yes/no meanings to put there: none are invented.
  if (q.type === 'predicate') return { type: wireType.predicate, instructions: q.instructions };
  if (q.type === 'choice') {
    // A required map label → description | null (§5.2).
    const criteria = Object.fromEntries(q.choices.map((c) => [label(c.value), c.description ?? null]));
    return { type: 'choice', instructions: q.instructions, criteria };
  }
  // An ordered array of level descriptions, position = level (§5.2). System One has no separate label, so the
  // label leads and the description follows: the model reads both, as it would in the OpenAI shape.
  const criteria = q.levels.map((l) =>
    l.description === undefined ? l.label : `${l.label}: ${l.description}`,
  );
  return { type: 'score', instructions: q.instructions, criteria };
}

// Answer types this mapper reads (`noul`, `choice`, `score`); the rest (the experimental `box`, anything newer)
// is skipped, as for the OpenAI shape (§4.3). A skipped answer leaves its question unanswered: a refusal.
const knownTypes = new Set(['noul', 'choice', 'score']);

/**
 * The answers of a response (§5.3), checked and in question order. `answers` is an object keyed by question
 * name; a question the model could not answer is simply absent, which is a refusal (§5.3, §5.6). Probabilities
 * come as maps and go back to Skimmer's lists: choice labels back to the typed option, score keys from the
 * string level index ("0", "1", …) to the integer. The `legend` only echoes the criteria we sent and is not
 * read: a level's label is taken from the question.
 */
export function mapResponse(questions: readonly Question[], body: unknown): Answer[] {
  const answers = isObject(body) ? body.answers : undefined;
  if (!isObject(answers)) throw badAnswer('the answer has no "answers" object keyed by question name');
  // A Map, and own entries only: `constructor` is a valid name, and answers["constructor"] on a plain object
  // that lacks it is Object, not undefined.
  const byName = new Map(questions.map((q) => [q.name, q]));
  const candidates: unknown[] = [];
  for (const [name, entry] of Object.entries(answers)) {
    if (!isObject(entry) || typeof entry.type !== 'string') {
      throw badAnswer('an answer is not an object with a type');
    }
    if (!knownTypes.has(entry.type)) continue;
    const question = byName.get(name);
    if (!question) throw badAnswer('an answer names a question that was not asked');
    if (entry.type !== wireType[question.type]) {
      throw badAnswer(
        `"${name}" was asked as a ${wireType[question.type]} question but answered as a ${entry.type}`,
      );
    }
    candidates.push(candidate(question, name, entry));
  }
  return validateAnswers(questions, candidates, { missing: 'refusal' });
}

function candidate(q: Question, name: string, a: Record<string, unknown>): Record<string, unknown> {
  if (a.type === 'noul') return { type: 'predicate', name, probability: a.noul };
  const common = { name, confidence: a.confidence };
  if (a.type === 'choice') {
    if (typeof a.choice !== 'string') throw badAnswer(`"${name}": the choice is not a label`);
    return {
      type: 'choice',
      ...common,
      choice: fromLabel(q, a.choice),
      probabilities: entries(name, a.probabilities)?.map(([l, p]) => ({
        value: fromLabel(q, l),
        probability: p,
      })),
    };
  }
  return {
    type: 'score',
    ...common,
    score: a.score,
    probabilities: entries(name, a.probabilities)?.map(([key, p]) => ({
      value: levelIndex(name, key),
      probability: p,
    })),
  };
}

// The option whose label this is, typed as the question offered it; an unknown label stays text, and the
// answer check then rejects it as an option that was not offered.
function fromLabel(q: Question, text: string): ChoiceValue {
  if (q.type !== 'choice') return text;
  return q.choices.find((c) => label(c.value) === text)?.value ?? text;
}

// "0", "1", … "9": the string index of a level. Anything else ("01", "1.0", "one", "-1") names no level.
function levelIndex(name: string, key: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(key))
    throw badAnswer(`"${name}": a probability names a level that does not exist`);
  return Number(key);
}

// A probabilities map as entries; absent is absent. A list here is the OpenAI container on the wrong route
// (§5.6) and is refused rather than guessed at.
function entries(name: string, map: unknown): [string, unknown][] | undefined {
  if (map == null) return undefined;
  if (!isObject(map)) throw badAnswer(`"${name}": the probabilities are not a map`);
  return Object.entries(map);
}

// Both formats report the served model and `usage` alike (§4.3, §5.3).
export { readMeta } from './meta.ts';

/**
 * Reads an error body (§5.4). TypeSafe's errors are FastAPI's, not OpenAI's: 422 `{"detail":[{loc, msg, type,
 * input, ctx}]}` is a request it could not accept, 404 `{"detail":"Not Found"}`; 529 is "overloaded" and
 * retried like a 5xx (retry.ts). Other hosts of this shape answer with the OpenAI error object (sliplane), which
 * is read too, so a quota 429 there stays final. SECURITY: only `loc` and `msg` are read; a 422's `input` and
 * `ctx` echo what was sent, which is the mail (and could be anything the server chose to repeat).
 */
export function classify(
  status: number,
  _headers: Headers,
  body: string,
): { code: AiErrorCode; detail?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
  const names = [error?.code, error?.type].map((n) => (typeof n === 'string' ? n : undefined));
  const detail =
    fastApiDetail(isObject(parsed) ? parsed.detail : undefined) ?? stringOrUndefined(error?.message);
  return { code: httpErrorCode(status, names), ...(detail ? { detail } : {}) };
}

function fastApiDetail(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const first: unknown = detail[0];
  if (!isObject(first)) return undefined;
  const loc = Array.isArray(first.loc)
    ? first.loc.filter((p) => typeof p === 'string' || typeof p === 'number').join('.')
    : '';
  const msg = stringOrUndefined(first.msg);
  if (!msg) return loc || undefined;
  return loc ? `${loc}: ${msg}` : msg;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
