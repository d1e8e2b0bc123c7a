// OpenAI Decisions (`POST {base}/decisions`, wire-formats §4), as OpenAI, Fireworks, Vercel AI Gateway, Dynamo
// and SGLang serve it (§4.5). The only file that knows this wire shape. Skimmer's questions and answers are
// already this shape (questions.ts), so the request is a copy and the response mostly a check.
import { classifyChatError } from '../providers/openai-chat.ts';
import { type Answer, askedQuestion, badAnswer, type Question, validateAnswers } from './questions.ts';

// The body carries no id of its own (§4 "Auth/headers"); the request id is in this header.
/** @public judge.ts reaches it through the wire format's module, which knip does not follow. */
export const requestIdHeaders = ['x-request-id'] as const;

// Every question this format can carry as the user wrote it: the typed choice values and the 2–255 / 2–10
// limits are this API's own (§4.2), and validateQuestions already applied them.
/** @public judge.ts reaches it through the wire format's module, which knip does not follow. */
export function checkQuestions(_questions: readonly Question[]): string | null {
  return null;
}

/**
 * The request body (§4.1). SECURITY: `input` is the mail and goes only into `input`, never into a question's
 * instructions, which are the user's. Each question is built field by field (askedQuestion), so nothing a
 * question object might carry beyond the documented fields is sent.
 */
export function buildRequest(
  model: string,
  input: string,
  questions: readonly Question[],
): Record<string, unknown> {
  return { model, input, questions: wireQuestions(questions) };
}

/** The `questions` array exactly as this API receives it (the chat fallback shows a model the same words). */
export function wireQuestions(questions: readonly Question[]): Record<string, unknown>[] {
  return questions.map(askedQuestion);
}

// Answer types this mapper reads; anything else in `answers` is skipped, as §4.3 advises ("treat entries with
// an unknown type as ignorable"; langchain keeps only these four).
const knownTypes = new Set(['predicate', 'choice', 'score', 'refusal']);

/**
 * The answers of a response (§4.3), checked and in question order. `answers` is an array in question order;
 * each answer is matched by `name`. An answer whose name is null (a host that does not echo names) is matched
 * by position, and only when there are exactly as many answers as questions (§4.3: "fall back to position
 * only when counts match"). A refusal is explicit here, so a question without an answer is a bad answer.
 */
export function mapResponse(questions: readonly Question[], body: unknown): Answer[] {
  const answers = isObject(body) ? body.answers : undefined;
  if (!Array.isArray(answers)) throw badAnswer('the answer has no "answers" list');
  const byPosition = answers.length === questions.length;
  const candidates: unknown[] = [];
  for (const [i, entry] of answers.entries()) {
    if (!isObject(entry) || typeof entry.type !== 'string') {
      throw badAnswer(`answer ${i + 1} is not an object with a type`);
    }
    if (!knownTypes.has(entry.type)) continue;
    if (entry.name == null) {
      const question = byPosition ? questions[i] : undefined;
      if (!question) throw badAnswer(`answer ${i + 1} has no name`);
      candidates.push({ ...entry, name: question.name });
    } else {
      candidates.push(entry);
    }
  }
  return validateAnswers(questions, candidates, { missing: 'bad_answer' });
}

// Both formats report the served model and `usage` alike (§4.3, §5.3).
export { readMeta } from './meta.ts';

// HTTP errors are the standard OpenAI error object (§4.4 → §1.5), read by the Chat provider's reader: a 429
// with `insufficient_quota` is an empty account and never retried; invalid questions are a 400.
export const classify = classifyChatError;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
