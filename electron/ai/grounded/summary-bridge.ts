// "Summarize thread" and "Ask about this thread" (issue 7): the thread's messages are loaded here by id (the
// page names the thread, never the text), summarised with checked citations — in parts when the thread is
// over the bounds — and cached per thread version. A failure is Skimmer's sentence, never a half answer.
import type { GroundedView, StreamEvent } from '../../../shared/contract.ts';
import { BridgeFailure, type Handlers } from '../../bridge/dispatch.ts';
import type { StreamHub } from '../../bridge/streams.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import { prepareQueries } from '../../mail/queries.ts';
import { splitModelRef } from '../ask.ts';
import type { prepareServices } from '../services.ts';
import { mailText } from '../tools/mail-tools.ts';
import { AiFailure } from '../transport.ts';
import { summarizeThread } from './long-thread.ts';

type Deps = { db: Db; services: ReturnType<typeof prepareServices>; streams: StreamHub; log: Log };

export function summaryHandlers(deps: Deps): Pick<Handlers, 'summary:thread'> {
  const queries = prepareQueries(deps.db);
  const cached = deps.db.prepare<[number, string, string, string], { answer_json: string }>(
    'SELECT answer_json FROM thread_summaries WHERE thread_id = ? AND version = ? AND model = ? AND question = ?',
  );
  const store = deps.db.prepare<[number, string, string, string, string, number]>(
    'INSERT OR REPLACE INTO thread_summaries (thread_id, version, model, question, answer_json, at) VALUES (?, ?, ?, ?, ?, ?)',
  );

  return {
    'summary:thread': (r) => {
      const thread = queries.thread(r.threadId);
      if (!thread) throw new BridgeFailure('not_found', 'That conversation is not in the mailbox.');
      splitModelRef(r.model);
      // The thread as it is now: it grows by messages, each with a larger id.
      const version = `${thread.messages.length}:${Math.max(0, ...thread.messages.map((m) => m.id))}`;
      const question = r.question ?? '';
      const controller = new AbortController();
      const streamId = deps.streams.start(() => controller.abort());
      const emit = (e: StreamEvent, final = false) => deps.streams.emit(streamId, e, final);
      setImmediate(async () => {
        try {
          const hit = r.refresh ? undefined : cached.get(r.threadId, version, r.model, question);
          if (hit)
            return emit(
              {
                type: 'summary_done',
                result: { ...(JSON.parse(hit.answer_json) as GroundedView), cached: true },
              },
              true,
            );
          const { service, model } = splitModelRef(r.model);
          const serviceId = deps.services.idByName(service);
          deps.services.requireMailConsent(serviceId);
          const connection = await deps.services.connection(serviceId);
          const byId = new Map(thread.messages.map((m) => [`m${m.id}`, m]));
          const result = await summarizeThread(
            connection,
            model,
            thread.messages.map((m) => ({
              id: `m${m.id}`,
              title: `${m.subject} — ${m.from.name || m.from.address}`,
              text: mailText(m).text,
            })),
            { signal: controller.signal, ...(r.question ? { question: r.question } : {}) },
          );
          const view: GroundedView = {
            answer: result.answer,
            cited: result.cited,
            citations: result.sources.map((s) => ({
              id: s.id,
              title: s.title,
              messageId: byId.get(s.id)?.id ?? null,
              location: null,
            })),
            cached: false,
          };
          store.run(r.threadId, version, r.model, question, JSON.stringify(view), Date.now());
          emit({ type: 'summary_done', result: view }, true);
        } catch (e) {
          if (e instanceof AiFailure || e instanceof BridgeFailure) {
            const detail = e instanceof AiFailure && e.providerDetail ? ` ${e.providerDetail}` : '';
            emit(
              { type: 'error', error: { code: e.code, message: `${e.message}${detail}`.slice(0, 500) } },
              true,
            );
          } else {
            deps.log.error('summary_thread', e);
            emit(
              {
                type: 'error',
                error: {
                  code: 'internal',
                  message: 'Something went wrong inside Skimmer; the details are in the log.',
                },
              },
              true,
            );
          }
        }
      });
      return { streamId };
    },
  };
}
