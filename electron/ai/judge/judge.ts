// The judge (DESIGN §9): typed questions about one piece of mail, answered with probabilities by a decision
// service (`decisions`, the OpenAI shape; `systemone`, TypeSafe's) or with verdicts by a chat model. Questions
// are checked before anything is sent; answers are checked before anyone sees them.
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { endpointFor } from '../../../shared/service-url.ts';
import { AiFailure } from '../protocol/errors.ts';
import { type RateLimit, readRateLimit } from '../protocol/rate-limit.ts';
import { redact } from '../protocol/redact.ts';
import { authHeaders } from '../providers/model-lists.ts';
import type { Sleep } from '../transport/retry.ts';
import { requestJson, type TransportOptions } from '../transport/transport.ts';
import { chatJudge } from './chat-judge.ts';
import * as decisions from './decisions.ts';
import { type Answer, type Question, validateQuestions } from './questions.ts';
import * as systemone from './systemone.ts';

export type JudgeConnection = { kind: ServiceKind; baseUrl: string; key: string | null };

export type JudgeOptions = {
  signal?: AbortSignal;
  fetch?: typeof fetch;
  sleep?: Sleep;
  onRetry?: TransportOptions['onRetry'];
  retryRateLimited?: boolean;
};

// `probabilities`: a decision service's distribution. `binary`: a chat model's verdicts, every probability
// 0 or 1 and no distributions, which the UI must not present as a measured certainty.
type Certainty = 'probabilities' | 'binary';

export type JudgeResult = {
  answers: Answer[];
  // The model that answered: a decision service's resolved version when it says (`jev-latest` →
  // `jev-1.13.0`), otherwise the one asked for.
  model: string;
  requestId: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
  certainty: Certainty;
  /** What the service's headers said of its request allowance, when they said (a bulk job paces by it). */
  rateLimit: RateLimit | null;
};

// The two decision shapes, each in its own file with the same exports.
const formats = { decisions, systemone } as const;

/**
 * Asks `questions` about `input` (the text of one message) and returns the checked answers in question order.
 * The format is chosen by the service's `kind` and nothing else: both shapes live at paths named `/decisions`
 * (OpenRouter, Merge and Gumloop serve System One there, AIML serves both on one route; wire-formats §4.5),
 * so a URL says nothing about what a server expects.
 *
 * SECURITY: `input` is untrusted data. The decision formats carry it only as `input` / `state`, never inside
 * instructions; the chat fallback puts it in an untrusted block of the user turn. The key goes only in the
 * kind's auth header, to the configured origin (the transport refuses redirects), and every detail that may
 * reach the user is redacted.
 *
 * Fails with AiFailure: `invalid_request` before any network when the questions break a rule (the sentence
 * is the detail), `bad_answer` when the service's answers do not fit the questions, and the transport's codes.
 */
export async function judge(
  connection: JudgeConnection,
  model: string,
  input: string,
  questions: readonly Question[],
  opts: JudgeOptions = {},
): Promise<JudgeResult> {
  if (model.trim() === '') throw new AiFailure('invalid_request', { providerDetail: 'Name a model to ask.' });
  const checked = validateQuestions(questions);
  if (!checked.ok) throw new AiFailure('invalid_request', { providerDetail: checked.reason });
  const kind = connection.kind;
  if (kind === 'decisions' || kind === 'systemone') {
    return askDecisionService(formats[kind], connection, model, input, questions, opts);
  }
  return chatJudge(connection, model, input, questions, opts);
}

async function askDecisionService(
  format: (typeof formats)[keyof typeof formats],
  connection: JudgeConnection,
  model: string,
  input: string,
  questions: readonly Question[],
  opts: JudgeOptions,
): Promise<JudgeResult> {
  const unfit = format.checkQuestions(questions);
  if (unfit) throw new AiFailure('invalid_request', { providerDetail: unfit });
  const keys = connection.key ? [connection.key] : [];
  let headers: Headers | undefined;
  const body = await requestJson(
    {
      url: endpointFor(connection.kind, connection.baseUrl),
      headers: authHeaders(connection.kind, connection.key),
      body: format.buildRequest(model, input, questions),
      signal: opts.signal,
      keys,
      classify: format.classify,
    },
    {
      fetch: opts.fetch,
      sleep: opts.sleep,
      onRetry: opts.onRetry,
      ...(opts.retryRateLimited === undefined ? {} : { retryRateLimited: opts.retryRateLimited }),
      onResponse: (h) => {
        headers = h;
      },
    },
  );
  let answers: Answer[];
  try {
    answers = format.mapResponse(questions, body);
  } catch (e) {
    // The detail names the user's questions; mask the key too, should a question name carry it.
    if (e instanceof AiFailure && e.providerDetail) {
      throw new AiFailure(e.code, { providerDetail: redact(e.providerDetail, keys) });
    }
    throw e;
  }
  const meta = format.readMeta(body);
  return {
    answers,
    model: printable(meta.model) ?? model,
    requestId: firstHeader(headers, format.requestIdHeaders),
    usage: meta.usage,
    certainty: 'probabilities',
    rateLimit: headers ? readRateLimit(headers) : null,
  };
}

function firstHeader(headers: Headers | undefined, names: readonly string[]): string | null {
  for (const name of names) {
    const value = printable(headers?.get(name) ?? null);
    if (value) return value;
  }
  return null;
}

// SECURITY: a request id and a model name come from the server and end up in the terminal, the database and
// the UI: visible ASCII only and short, or nothing (no escape sequences, no megabyte "ids").
function printable(value: string | null): string | null {
  return value !== null && /^[\x21-\x7e]{1,200}$/.test(value) ? value : null;
}
