// "Summarize thread", "Ask about this thread", "Ask about selection" and "Ask about these documents" (issue 7):
// the page names a thread, messages or documents by id, never their text (DESIGN §10). The answer is planned
// in electron/ai/grounded/thread-answers.ts (loading, citations, the cache) and sent here on a stream. A
// failure is Skimmer's sentence, never a half answer, and is never cached.
import type { StreamEvent } from '../../../shared/contract/index.ts';
import { type AnswerPlan, prepareThreadAnswers } from '../../ai/grounded/thread-answers.ts';
import { connectForMail, splitModelRef } from '../../ai/model-access.ts';
import type { prepareServices } from '../../ai/services.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import type { SomeReads } from '../../reads/reads.ts';
import type { Handlers } from '../dispatch.ts';
import { streamFailure } from '../stream-failure.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  streams: StreamHub;
  log: Log;
  /** What an answer reads: on the read thread in the long-running app (reads/), on this one in a command. */
  reads: SomeReads<'thread' | 'namedSources'>;
};

export function summaryHandlers(
  deps: Deps,
): Pick<Handlers, 'summary:thread' | 'summary:ask' | 'summary:stored'> {
  const answers = prepareThreadAnswers(deps.db, deps.reads);

  /**
   * Starts the stream and answers on the next tick: the plan's cached answer, or else its `answer` with the
   * service's connection (consent checked first, as for every request that carries mail or documents).
   */
  function answerOnStream(modelRef: string, name: string, plan: AnswerPlan): { streamId: string } {
    splitModelRef(modelRef);
    const controller = new AbortController();
    const streamId = deps.streams.start(() => controller.abort());
    const emit = (e: StreamEvent) => deps.streams.emit(streamId, e, true);
    setImmediate(async () => {
      try {
        const hit = plan.cached();
        if (hit) return emit({ type: 'summary_done', result: hit });
        // SECURITY: mail and document text go to a service off this computer only with the user's consent.
        const { model, connection } = await connectForMail(deps.services, modelRef);
        emit({ type: 'summary_done', result: await plan.answer(connection, model, controller.signal) });
      } catch (e) {
        emit(streamFailure(e, deps.log, name));
      }
    });
    return { streamId };
  }

  return {
    // A wrong id is the request's `not_found`, thrown before any stream.
    'summary:thread': async (r) => answerOnStream(r.model, 'summary_thread', await answers.thread(r)),
    'summary:ask': async (r) => answerOnStream(r.model, 'summary_ask', await answers.ask(r)),
    'summary:stored': (r) => {
      const hit = answers.stored(r.threadId);
      return hit && { model: hit.model, result: hit.view };
    },
  };
}
