// "Summarize thread", "Ask about this thread", "Ask about selection" and "Ask about these documents" (issue 7):
// the page names a thread, messages or documents by id, never their text (DESIGN §10); Skimmer loads them
// here, answers with checked citations — each tied to its message, or to its document and page — and sends
// the answer on a stream. Thread summaries are cached per thread version, other answers per what they were
// asked over. A failure is Skimmer's sentence, never a half answer, and is never cached.
import { createHash } from 'node:crypto';
import type { GroundedView, MessageView, StreamEvent } from '../../../shared/contract.ts';
import { chooseSources } from '../../ai/grounded/ask-sources.ts';
import { groundedBounds } from '../../ai/grounded/bounds.ts';
import type { GroundedConnection } from '../../ai/grounded/grounded.ts';
import { groundedAnswer } from '../../ai/grounded/grounded.ts';
import {
  type Citation,
  cachedView,
  chunkCitation,
  messageCitation,
  messageSource,
  viewOf,
} from '../../ai/grounded/grounded-view.ts';
import { summarizeThread } from '../../ai/grounded/long-thread.ts';
import { connectForMail, splitModelRef } from '../../ai/model-access.ts';
import { AiFailure } from '../../ai/protocol/errors.ts';
import type { prepareServices } from '../../ai/services.ts';
import type { Db } from '../../db/open.ts';
import { type Chunk, prepareDocuments } from '../../documents/documents.ts';
import type { Log } from '../../log.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import type { Handlers } from '../dispatch.ts';
import { BridgeFailure, toFailure } from '../errors.ts';
import type { StreamHub } from '../streams.ts';

type Deps = { db: Db; services: ReturnType<typeof prepareServices>; streams: StreamHub; log: Log };

export function summaryHandlers(deps: Deps): Pick<Handlers, 'summary:thread' | 'summary:ask'> {
  const queries = prepareQueries(deps.db);
  const documents = prepareDocuments(deps.db);
  const cached = deps.db.prepare<[number, string, string, string], { answer_json: string }>(
    'SELECT answer_json FROM thread_summaries WHERE thread_id = ? AND version = ? AND model = ? AND question = ?',
  );
  const store = deps.db.prepare<[number, string, string, string, string, number]>(
    'INSERT OR REPLACE INTO thread_summaries (thread_id, version, model, question, answer_json, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const cachedAsk = deps.db.prepare<[string], { answer_json: string }>(
    'SELECT answer_json FROM ask_answers WHERE key = ?',
  );
  const storeAsk = deps.db.prepare<[string, string, number]>(
    'INSERT OR REPLACE INTO ask_answers (key, answer_json, at) VALUES (?, ?, ?)',
  );

  /**
   * Starts the stream and answers on the next tick: `answer` gets the service's connection (consent checked
   * first, as for every request that carries mail or documents) and returns the view, or throws.
   */
  function answerOnStream(
    modelRef: string,
    name: string,
    answer: (connection: GroundedConnection, model: string, signal: AbortSignal) => Promise<GroundedView>,
    cachedAnswer: () => GroundedView | undefined = () => undefined,
  ): { streamId: string } {
    splitModelRef(modelRef);
    const controller = new AbortController();
    const streamId = deps.streams.start(() => controller.abort());
    const emit = (e: StreamEvent) => deps.streams.emit(streamId, e, true);
    setImmediate(async () => {
      try {
        const hit = cachedAnswer();
        if (hit) return emit({ type: 'summary_done', result: hit });
        // SECURITY: mail and document text go to a service off this computer only with the user's consent.
        const { model, connection } = await connectForMail(deps.services, modelRef);
        emit({ type: 'summary_done', result: await answer(connection, model, controller.signal) });
      } catch (e) {
        const failure = toFailure(e);
        if (failure) {
          // A summary's failure says what the service said too (redacted): the bound passed, or its words.
          const detail = e instanceof AiFailure && e.providerDetail ? ` ${e.providerDetail}` : '';
          emit({
            type: 'error',
            error: { ...failure, message: `${failure.message}${detail}`.slice(0, 500) },
          });
        } else {
          deps.log.error(name, e);
          emit({
            type: 'error',
            error: {
              code: 'internal',
              message: 'Something went wrong inside Skimmer; the details are in the log.',
            },
          });
        }
      }
    });
    return { streamId };
  }

  return {
    'summary:thread': (r) => {
      const thread = queries.thread(r.threadId);
      if (!thread) throw new BridgeFailure('not_found', 'That conversation is not in the mailbox.');
      // The thread as it is now: it grows by messages, each with a larger id.
      const version = `${thread.messages.length}:${Math.max(0, ...thread.messages.map((m) => m.id))}`;
      const question = r.question ?? '';
      const known = new Map(thread.messages.map((m) => [`m${m.id}`, messageCitation(m)]));
      return answerOnStream(
        r.model,
        'summary_thread',
        async (connection, model, signal) => {
          const result = await summarizeThread(connection, model, thread.messages.map(messageSource), {
            signal,
            ...(r.question ? { question: r.question } : {}),
          });
          const view = viewOf(result, known, null);
          store.run(r.threadId, version, r.model, question, JSON.stringify(view), Date.now());
          return view;
        },
        () => {
          if (r.refresh) return undefined;
          const hit = cached.get(r.threadId, version, r.model, question);
          return hit ? cachedView(hit.answer_json) : undefined;
        },
      );
    },

    'summary:ask': (r) => {
      // Everything named is loaded now, so a wrong id is the request's `not_found`, before any stream.
      const mail = new Map<number, MessageView>();
      if (r.threadId !== undefined) {
        const thread = queries.thread(r.threadId);
        if (!thread) throw new BridgeFailure('not_found', 'That conversation is not in the mailbox.');
        for (const m of thread.messages) mail.set(m.id, m);
      }
      for (const id of r.messageIds ?? []) {
        const m = mail.get(id) ?? queries.message(id);
        if (!m) throw new BridgeFailure('not_found', 'One of the chosen messages is not in the mailbox.');
        mail.set(id, m);
      }
      const messages = [...mail.values()].sort((a, b) => a.date - b.date || a.id - b.id);
      const perDocument: Chunk[][] = [];
      for (const id of new Set(r.documentIds ?? [])) {
        if (!documents.document(id))
          throw new BridgeFailure('not_found', 'One of the chosen documents is not imported.');
        const relevant = documents.relevant(id, r.question, groundedBounds.maxSources);
        // A document none of whose chunks hold the question's words still offers its opening chunks.
        perDocument.push(
          relevant.length > 0 ? relevant : documents.chunks(id).slice(0, groundedBounds.maxSources),
        );
      }
      const known = new Map<string, Citation>([
        ...messages.map((m) => [`m${m.id}`, messageCitation(m)] as const),
        ...perDocument.flat().map((c) => [c.id, chunkCitation(c)] as const),
      ]);
      // What the answer was asked over: a thread counts as its messages now, so one that grew is a new key.
      // A document's id is enough: documents are never changed in place, and different content imported is a
      // new document with a new id (electron/documents/documents.ts, content hash).
      const key = createHash('sha256')
        .update(
          JSON.stringify({
            model: r.model,
            question: r.question,
            messageIds: [...mail.keys()].sort((a, b) => a - b),
            documentIds: [...new Set(r.documentIds ?? [])].sort((a, b) => a - b),
          }),
        )
        .digest('hex');
      const askAnswer = async (
        connection: GroundedConnection,
        model: string,
        signal: AbortSignal,
      ): Promise<GroundedView> => {
        // Mail alone is answered in parts when it is over the bounds, as a long thread is summarised.
        if (perDocument.length === 0) {
          const result = await summarizeThread(connection, model, messages.map(messageSource), {
            signal,
            question: r.question,
          });
          return viewOf(result, known, null);
        }
        const chosen = chooseSources(messages.map(messageSource), perDocument, r.question);
        if (chosen.sources.length === 0) {
          throw new BridgeFailure('invalid_request', 'The chosen documents have no text to read.');
        }
        const answer = await groundedAnswer(
          connection,
          model,
          { sources: chosen.sources, question: r.question },
          { signal },
        );
        const note =
          chosen.leftOut.length === 0
            ? null
            : `To stay within the bounds, ${chosen.leftOut.length} of ${messages.length} messages were left out (those sharing fewest words with the question).`;
        return viewOf(answer, known, note);
      };
      return answerOnStream(
        r.model,
        'summary_ask',
        async (connection, model, signal) => {
          const view = await askAnswer(connection, model, signal);
          // Stored only once complete and checked: a failure or a Stop threw before this.
          storeAsk.run(key, JSON.stringify(view), Date.now());
          return view;
        },
        () => {
          if (r.refresh) return undefined;
          const hit = cachedAsk.get(key);
          return hit ? cachedView(hit.answer_json) : undefined;
        },
      );
    },
  };
}
