// Asks a question set about many messages (issue 6): answers come from the cache when the same question was
// asked about the same mail with the same model; the rest go to the service, a few at a time, fewer when it
// says it is rate limited (concurrency.ts). A failure that would repeat for every message (a refused key, a
// missing model, an exhausted quota) stops the run; others are reported for their message and the run goes on.

import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import { AssistantError } from '../assistant-error.ts';
import { judge } from '../judge/judge.ts';
import { type Answer, type Question, validateQuestions } from '../judge/questions.ts';
import type { ModelAccess } from '../model-access.ts';
import { type AiErrorCode, AiFailure } from '../protocol/errors.ts';
import { mailText } from '../tools/mail-tools.ts';
import { type Certainty, prepareJudgeAnswers } from './answers.ts';
import { onRateLimited, onStart, onSuccess, startConcurrency, startDelay } from './concurrency.ts';

export type JudgeResult =
  | {
      messageId: number;
      ok: true;
      answers: Answer[];
      certainty: Certainty;
      cached: boolean;
      /** The model that answered (a decision service's resolved version) and its request id, when asked now. */
      answeredBy: { model: string; requestId: string | null } | null;
    }
  | { messageId: number; ok: false; code: AiErrorCode | 'not_found'; message: string };

type Deps = { db: Db };
export type JudgeOptions = {
  /** Stop now: requests in flight are abandoned and their messages stay unanswered. */
  signal?: AbortSignal;
  /** Stop starting: requests in flight still finish and are recorded (a pause loses no answer). */
  drain?: AbortSignal;
  onResult: (r: JudgeResult) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
};

const fatal = new Set<string>([
  'unauthorized',
  'forbidden',
  'no_api_key',
  'not_found',
  'quota_exceeded',
  'stale',
  'cancelled',
]);
// A rate limit slows the job down, it does not fail messages; only a service that has refused everything for
// this long stops the run (Resume later picks up where it stopped).
const maxRateLimitedMs = 5 * 60_000;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

export async function judgeMessages(
  deps: Deps,
  request: {
    /** As the user named it (`service/model`): the cache's key. */
    model: string;
    /** SECURITY: from connectForMail, which checked the consent before it read the key. */
    access: Pick<ModelAccess, 'model' | 'connection'>;
    questions: Question[];
    messageIds: readonly number[];
  },
  opts: JudgeOptions,
): Promise<{
  answered: number;
  cached: number;
  failed: number;
  stopped: { code: string; message: string } | null;
}> {
  const checked = validateQuestions(request.questions);
  if (!checked.ok) throw new AssistantError('invalid', checked.reason);
  const { model, connection } = request.access;
  const queries = prepareQueries(deps.db);
  const cache = prepareJudgeAnswers(deps.db);
  const mail = prepareMessageReads(deps.db);
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? wait;
  const counts = { answered: 0, cached: 0, failed: 0 };
  let stopped: { code: string; message: string } | null = null;
  let concurrency = startConcurrency();
  let lastAnswerAt = now();
  const queue = [...request.messageIds];
  let running = 0;
  const rateLimited = (waitMs: number | undefined) => {
    concurrency = onRateLimited(concurrency, now(), waitMs);
  };

  async function one(id: number): Promise<void> {
    const message = queries.message(id);
    const hash = mail.contentHash(id);
    if (!message || !hash) {
      counts.failed += 1;
      opts.onResult({
        messageId: id,
        ok: false,
        code: 'not_found',
        message: `Message ${id} is not in the mailbox.`,
      });
      return;
    }
    const hit = cache.cached(hash, request.questions, request.model);
    if (hit) {
      counts.cached += 1;
      opts.onResult({
        messageId: id,
        ok: true,
        answers: hit.answers,
        certainty: hit.certainty,
        cached: true,
        answeredBy: null,
      });
      return;
    }
    try {
      // SECURITY: the mail is data: it goes only into the judge's input, never into the instructions.
      const judged = await judge(connection, model, mailText(message).text, request.questions, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
        // A 429 comes back here (not retried by the transport) and the message rejoins the paced queue.
        retryRateLimited: false,
      });
      cache.store(hash, request.model, request.questions, judged.answers, judged.certainty, judged.requestId);
      concurrency = onSuccess(concurrency, judged.rateLimit, now());
      lastAnswerAt = now();
      counts.answered += 1;
      opts.onResult({
        messageId: id,
        ok: true,
        answers: judged.answers,
        certainty: judged.certainty,
        cached: false,
        answeredBy: { model: judged.model, requestId: judged.requestId },
      });
    } catch (e) {
      if (!(e instanceof AiFailure)) throw e;
      // Stopped: the message was not answered, not failed; it stays pending for Resume.
      if (e.code === 'cancelled' || opts.signal?.aborted) {
        stopped ??= { code: 'cancelled', message: 'Stopped.' };
        return;
      }
      if (e.code === 'rate_limited') {
        // Not this message's failure: it goes back to the queue, or, when the service has refused everything
        // for too long, stays pending with the run stopped, for a Resume later.
        if (now() - lastAnswerAt < maxRateLimitedMs) {
          rateLimited(e.retryAfterMs);
          queue.unshift(id);
        } else stopped ??= { code: e.code, message: e.message };
        return;
      }
      if (fatal.has(e.code)) stopped ??= { code: e.code, message: e.message };
      counts.failed += 1;
      opts.onResult({ messageId: id, ok: false, code: e.code, message: e.message });
    }
  }

  await new Promise<void>((resolve, reject) => {
    let waiting = false;
    const pump = () => {
      if ((opts.signal?.aborted || opts.drain?.aborted) && !stopped)
        stopped = { code: 'cancelled', message: 'Stopped.' };
      if (stopped || queue.length === 0) {
        if (running === 0) resolve();
        return;
      }
      while (queue.length > 0 && !stopped && !waiting) {
        const delay = startDelay(concurrency, now(), running);
        if (delay === null) return; // every slot busy: the next one to finish pumps again
        if (delay > 0) {
          waiting = true;
          void sleep(delay, opts.drain ?? opts.signal).then(() => {
            waiting = false;
            pump();
          });
          return;
        }
        const id = queue.shift() as number;
        running += 1;
        concurrency = onStart(concurrency, now());
        one(id).then(
          () => {
            running -= 1;
            pump();
          },
          (e: unknown) => reject(e),
        );
      }
    };
    opts.drain?.addEventListener('abort', pump, { once: true });
    pump();
  });
  return { ...counts, stopped };
}
