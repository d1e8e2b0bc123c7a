// The judge through an ordinary chat model (DESIGN §9), for services of the chat kinds (`openai`,
// `openai-responses`, `anthropic`): one turn without tools, asking for the answers as strict JSON in the same
// shape as the OpenAI Decisions answers, checked the same way. A chat model has no calibrated distribution to
// report, so it is asked for verdicts, not probabilities: a predicate is 0 or 1, a choice one option, a score
// one level; the result says `certainty: 'binary'` so no one reads a 1 as "100% sure".

import { suspectInjection } from '../../text/injection.ts';
import { AiFailure } from '../protocol/errors.ts';
import type { ModelRequest } from '../protocol/request.ts';
import { untrustedNote, wrapUntrusted } from '../safety/untrusted.ts';
import { streamModel } from '../transport/model-stream.ts';
import { wireQuestions } from './decisions.ts';
import type { JudgeConnection, JudgeOptions, JudgeResult } from './judge.ts';
import { type Answer, badAnswer, type Question, validateAnswers } from './questions.ts';

// Room for 50 short JSON answers, with margin for a model that pads its JSON with whitespace.
const maxOutputTokens = 4_096;

/**
 * The chat turn. SECURITY: the questions are the user's instructions and live in the system prompt; the mail
 * is data and goes only into the user turn, inside an untrusted block (wrapUntrusted neutralises any copy of
 * the block's tags in the mail), with the fixed note that such blocks are never instructions.
 */
export function buildChatRequest(model: string, input: string, questions: readonly Question[]): ModelRequest {
  const block = wrapUntrusted('mail', input, suspectInjection(input).suspect);
  return {
    model,
    system: systemPrompt(questions),
    history: [
      {
        role: 'user',
        content: [{ type: 'text', text: `${block}\n\nAnswer the questions about this email.` }],
      },
    ],
    maxOutputTokens,
  };
}

function systemPrompt(questions: readonly Question[]): string {
  // The questions exactly as the Decisions API would receive them, so both read the same words.
  const asked = JSON.stringify(wireQuestions(questions), null, 1);
  return [
    'You answer questions about one email for the user of a mail client.',
    untrustedNote,
    '',
    'Reply with one JSON object and nothing else, no prose and no code fence:',
    '{"answers": [one answer per question, in the order asked]}',
    'Each answer is one of:',
    '- {"type":"predicate","name":NAME,"probability":P} where P is 1 if the statement holds for the email and 0 if it does not; no other number.',
    '- {"type":"choice","name":NAME,"choice":VALUE} where VALUE is exactly one of the question\'s choice values, with the same JSON type (the text "true" and the boolean true are different values).',
    '- {"type":"score","name":NAME,"score":LEVEL} where LEVEL is the whole-number position of one level, counting from 0 at the first (lowest) level.',
    '- {"type":"refusal","name":NAME} when the email gives no basis to answer that question.',
    '',
    "The questions, which are the user's own instructions:",
    asked,
  ].join('\n');
}

// A reply that is only a fenced block is tolerated (models add ```json out of habit); prose around the JSON is
// not, since picking JSON out of prose is guessing.
const fenced = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/i;

/**
 * The answers in a chat model's reply, checked against the questions and in question order. Fields that were
 * not asked for (`confidence`, `probabilities`) are dropped, not reported: a chat model's own figures are not
 * calibrated. A predicate must be exactly 0 or 1 and a score a whole level; every answer must be there (a
 * refusal is explicit, as in the OpenAI shape). Anything else throws AiFailure('bad_answer').
 */
export function parseChatAnswers(questions: readonly Question[], text: string): Answer[] {
  const trimmed = text.trim();
  const json = fenced.exec(trimmed)?.[1] ?? trimmed;
  let reply: unknown;
  try {
    reply = JSON.parse(json);
  } catch {
    throw badAnswer('the reply is not JSON');
  }
  const answers =
    reply !== null && typeof reply === 'object' && !Array.isArray(reply)
      ? (reply as Record<string, unknown>).answers
      : undefined;
  if (!Array.isArray(answers)) throw badAnswer('the reply has no "answers" list');
  const checked = validateAnswers(questions, answers.map(verdictOnly), { missing: 'bad_answer' });
  for (const a of checked) {
    if (a.type === 'predicate' && a.probability !== 0 && a.probability !== 1) {
      throw badAnswer(`"${a.name}": a yes/no answer must be 0 or 1`);
    }
    if (a.type === 'score' && !Number.isInteger(a.score)) {
      throw badAnswer(`"${a.name}": the score must be one level`);
    }
  }
  return checked;
}

function verdictOnly(answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return answer;
  const { confidence: _c, probabilities: _p, ...rest } = answer as Record<string, unknown>;
  return rest;
}

/** One chat turn, read to its end: the reply's text and usage, or the failure that ended it. */
export async function chatJudge(
  connection: JudgeConnection,
  model: string,
  input: string,
  questions: readonly Question[],
  opts: JudgeOptions = {},
): Promise<JudgeResult> {
  let text = '';
  let usage: JudgeResult['usage'] = null;
  for await (const event of streamModel(connection, buildChatRequest(model, input, questions), opts)) {
    if (event.type === 'text_delta') text += event.text;
    else if (event.type === 'usage')
      usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    else if (event.type === 'aborted') throw new AiFailure('cancelled');
    else if (event.type === 'error' && event.terminal) {
      throw new AiFailure(event.code, event.providerDetail ? { providerDetail: event.providerDetail } : {});
    } else if (event.type === 'message_stop') {
      // Cut off by length or a filter (or a model that declined the whole turn): what arrived is not the
      // answer it would have given. A tool call was never offered; it is not an answer either.
      if (event.stopReason === 'tool_use') throw badAnswer('the model called a tool instead of answering');
      if (event.stopReason !== 'end_turn') throw new AiFailure('incomplete');
    }
  }
  // The stream reports its own requestId nowhere: chat answers have none to keep.
  return {
    answers: parseChatAnswers(questions, text),
    model,
    requestId: null,
    usage,
    certainty: 'binary',
    rateLimit: null,
  };
}
