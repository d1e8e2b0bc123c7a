// "Summarize thread", "Ask about this thread", "Ask about selection" and "Ask about these documents" (issue 7):
// the request names a thread, messages or documents by id, never their text (DESIGN §10); this loads them and
// plans the answer — the cached one, or how to ask the model, with checked citations, each tied to its
// message, or to its document and page. The caller connects (consent first) and relays the result.
import type { GroundedView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { DocumentError } from '../../documents/document-error.ts';
import { MailError } from '../../mail/mail-error.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import type { SomeAssistantReads } from '../mail-reads.ts';
import { askKey, prepareAnswerCache } from './answer-cache.ts';
import { chooseSources } from './ask-sources.ts';
import { type GroundedConnection, groundedAnswer } from './grounded.ts';
import { type Citation, chunkCitation, messageCitation, messageSource, viewOf } from './grounded-view.ts';
import { summarizeThread } from './long-thread.ts';

/** An answer to give: the cached one (unless refreshed), or else ask the model; `answer` stores what it got. */
export type AnswerPlan = {
  cached: () => GroundedView | undefined;
  answer: (connection: GroundedConnection, model: string, signal: AbortSignal) => Promise<GroundedView>;
};

export type ThreadRequest = {
  threadId: number;
  model: string;
  question?: string | undefined;
  refresh: boolean;
};
export type AskRequest = {
  model: string;
  question: string;
  threadId?: number | undefined;
  messageIds?: readonly number[] | undefined;
  documentIds?: readonly number[] | undefined;
  refresh: boolean;
};

/**
 * `reads` load what is answered: on the read thread in the long-running app (reads/), so a thread of many long
 * messages does not hold the thread that answers the bridge.
 */
export function prepareThreadAnswers(db: Db, reads: SomeAssistantReads<'thread' | 'namedSources'>) {
  const cache = prepareAnswerCache(db);
  // A thread's version without reading its messages: every opening of a thread asks for its stored summary.
  const mail = prepareMessageReads(db);

  async function found(threadId: number) {
    const thread = await reads.thread(threadId);
    if (!thread) throw new MailError('not_found', 'That conversation is not in the mailbox.');
    return thread;
  }
  // The thread as it is now, by its number of messages and its newest id: it grows by messages, each with a
  // larger id.
  const versionOf = (count: number, newestId: number) => `${count}:${newestId}`;

  /** A thread's summary, or its answer to a question; throws MailError when the thread is not there. */
  async function thread(r: ThreadRequest): Promise<AnswerPlan> {
    const thread = await found(r.threadId);
    const version = versionOf(thread.messages.length, Math.max(0, ...thread.messages.map((m) => m.id)));
    const question = r.question ?? '';
    const known = new Map(thread.messages.map((m) => [`m${m.id}`, messageCitation(m)]));
    return {
      cached: () => (r.refresh ? undefined : cache.summary(r.threadId, version, r.model, question)),
      answer: async (connection, model, signal) => {
        const result = await summarizeThread(connection, model, thread.messages.map(messageSource), {
          signal,
          ...(r.question ? { question: r.question } : {}),
        });
        const view = viewOf(result, known, null);
        cache.storeSummary(r.threadId, version, r.model, question, view);
        return view;
      },
    };
  }

  /**
   * A question over a thread, messages and/or documents. Everything named is loaded first, so a wrong id throws
   * (MailError, DocumentError) before anything is asked.
   */
  async function ask(r: AskRequest): Promise<AnswerPlan> {
    const { threadId, messageIds, documentIds, question } = r;
    const { messages, perDocument } = await reads.namedSources({
      threadId,
      messageIds,
      documentIds,
      question,
    });
    const known = new Map<string, Citation>([
      ...messages.map((m) => [`m${m.id}`, messageCitation(m)] as const),
      ...perDocument.flat().map((c) => [c.id, chunkCitation(c)] as const),
    ]);
    const key = askKey({
      model: r.model,
      question: r.question,
      messageIds: messages.map((m) => m.id),
      documentIds: r.documentIds ?? [],
    });
    const askModel = async (
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
        throw new DocumentError('no_text', 'The chosen documents have no text to read.');
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
    return {
      cached: () => (r.refresh ? undefined : cache.ask(key)),
      answer: async (connection, model, signal) => {
        const view = await askModel(connection, model, signal);
        // Stored only once complete and checked: a failure or a Stop threw before this.
        cache.storeAsk(key, view);
        return view;
      },
    };
  }

  /** The summary already stored for the thread as it is now, by any model: shown on reopening, never asked. */
  function stored(threadId: number): { model: string; view: GroundedView } | null {
    const { count: n, newestId: top } = mail.threadShape(threadId);
    if (n === 0) throw new MailError('not_found', 'That conversation is not in the mailbox.');
    return cache.latestSummary(threadId, versionOf(n, top)) ?? null;
  }

  return { thread, ask, stored };
}
