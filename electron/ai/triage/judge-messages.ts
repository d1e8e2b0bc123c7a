// Asks a question set about many messages (issue 6): answers come from the cache when the same question was
// asked about the same mail with the same model; the rest go to the service, a few at a time, fewer when it
// says it is rate limited (concurrency.ts). A failure that would repeat for every message (a refused key, a
// missing model, an exhausted quota) stops the run; others are reported for their message and the run goes on.

import { BridgeFailure } from '../../bridge/dispatch.ts';
import type { Db } from '../../db/open.ts';
import { prepareQueries } from '../../mail/queries.ts';
import { splitModelRef } from '../ask.ts';
import { judge } from '../judge/judge.ts';
import { type Answer, type Question, validateQuestions } from '../judge/questions.ts';
import type { AiErrorCode } from '../protocol/errors.ts';
import type { prepareServices } from '../services.ts';
import { mailText } from '../tools/mail-tools.ts';
import { AiFailure } from '../transport.ts';
import { type Certainty, prepareJudgeAnswers } from './answers.ts';
import { onRateLimited, onSuccess, startConcurrency } from './concurrency.ts';

export type JudgeResult =
  | { messageId: number; ok: true; answers: Answer[]; certainty: Certainty; cached: boolean }
  | { messageId: number; ok: false; code: AiErrorCode | 'not_found'; message: string };

type Deps = { db: Db; services: ReturnType<typeof prepareServices> };
export type JudgeOptions = {
  signal?: AbortSignal;
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
const maxRateLimitedTries = 5;

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
  request: { model: string; questions: Question[]; messageIds: readonly number[] },
  opts: JudgeOptions,
): Promise<{
  answered: number;
  cached: number;
  failed: number;
  stopped: { code: string; message: string } | null;
}> {
  const checked = validateQuestions(request.questions);
  if (!checked.ok) throw new BridgeFailure('invalid_request', checked.reason);
  const { service, model } = splitModelRef(request.model);
  const serviceId = deps.services.idByName(service);
  deps.services.requireMailConsent(serviceId);
  const connection = await deps.services.connection(serviceId);
  const queries = prepareQueries(deps.db);
  const cache = prepareJudgeAnswers(deps.db);
  const hashOf = deps.db.prepare<[number], { content_hash: string }>(
    'SELECT content_hash FROM messages WHERE id = ?',
  );
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? wait;
  const counts = { answered: 0, cached: 0, failed: 0 };
  let stopped: { code: string; message: string } | null = null;
  let concurrency = startConcurrency();
  const queue = request.messageIds.map((id) => ({ id, tries: 0 }));
  let running = 0;

  async function one(item: { id: number; tries: number }): Promise<void> {
    const message = queries.message(item.id);
    const hash = hashOf.get(item.id)?.content_hash;
    if (!message || !hash) {
      counts.failed += 1;
      opts.onResult({
        messageId: item.id,
        ok: false,
        code: 'not_found',
        message: `Message ${item.id} is not in the mailbox.`,
      });
      return;
    }
    const hit = cache.cached(hash, request.questions, request.model);
    if (hit) {
      counts.cached += 1;
      opts.onResult({
        messageId: item.id,
        ok: true,
        answers: hit.answers,
        certainty: hit.certainty,
        cached: true,
      });
      return;
    }
    try {
      // SECURITY: the mail is data: it goes only into the judge's input, never into the instructions.
      const judged = await judge(connection, model, mailText(message).text, request.questions, {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
      });
      cache.store(hash, request.model, request.questions, judged.answers, judged.certainty, judged.requestId);
      concurrency = onSuccess(concurrency);
      counts.answered += 1;
      opts.onResult({
        messageId: item.id,
        ok: true,
        answers: judged.answers,
        certainty: judged.certainty,
        cached: false,
      });
    } catch (e) {
      if (!(e instanceof AiFailure)) throw e;
      // Stopped (a pause): the message was not answered, not failed; it stays pending for Resume.
      if (e.code === 'cancelled' || opts.signal?.aborted) {
        stopped ??= { code: 'cancelled', message: 'Stopped.' };
        return;
      }
      if (e.code === 'rate_limited' && item.tries + 1 < maxRateLimitedTries) {
        concurrency = onRateLimited(concurrency, now(), e.retryAfterMs);
        queue.unshift({ id: item.id, tries: item.tries + 1 });
        return;
      }
      if (fatal.has(e.code)) stopped ??= { code: e.code, message: e.message };
      counts.failed += 1;
      opts.onResult({ messageId: item.id, ok: false, code: e.code, message: e.message });
    }
  }

  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (opts.signal?.aborted && !stopped) stopped = { code: 'cancelled', message: 'Stopped.' };
      if (stopped || queue.length === 0) {
        if (running === 0) resolve();
        return;
      }
      const pause = concurrency.pausedUntil - now();
      if (pause > 0) {
        if (running === 0) void sleep(pause, opts.signal).then(pump);
        return;
      }
      while (running < concurrency.limit && queue.length > 0 && !stopped) {
        const item = queue.shift() as { id: number; tries: number };
        running += 1;
        one(item).then(
          () => {
            running -= 1;
            pump();
          },
          (e: unknown) => reject(e),
        );
      }
    };
    pump();
  });
  return { ...counts, stopped };
}
