// Grounded answers, cached (issue 7): thread summaries per thread version, model and question
// (`thread_summaries`), other answers per what they were asked over (`ask_answers`). Only a complete, checked
// answer is stored; a failure never is. Owns both tables.
import { createHash } from 'node:crypto';
import type { GroundedView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { cachedView } from './grounded-view.ts';

/** What an answer over messages and documents was asked over. */
export type AskedOver = {
  model: string;
  question: string;
  messageIds: readonly number[];
  documentIds: readonly number[];
};

/**
 * The cache key of an answer over messages and documents: a thread counts as its messages now, so one that
 * grew is a new key. A document's id is enough: documents are never changed in place, and different content
 * imported is a new document with a new id (electron/documents/documents.ts, content hash).
 */
export function askKey(over: AskedOver): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        model: over.model,
        question: over.question,
        messageIds: [...over.messageIds].sort((a, b) => a - b),
        documentIds: [...new Set(over.documentIds)].sort((a, b) => a - b),
      }),
    )
    .digest('hex');
}

export function prepareAnswerCache(db: Db, now: () => number = Date.now) {
  const summary = db.prepare<[number, string, string, string], { answer_json: string }>(
    'SELECT answer_json FROM thread_summaries WHERE thread_id = ? AND version = ? AND model = ? AND question = ?',
  );
  const storeSummary = db.prepare<[number, string, string, string, string, number]>(
    'INSERT OR REPLACE INTO thread_summaries (thread_id, version, model, question, answer_json, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const latest = db.prepare<[number, string], { model: string; answer_json: string }>(
    `SELECT model, answer_json FROM thread_summaries WHERE thread_id = ? AND version = ? AND question = ''
      ORDER BY at DESC, model LIMIT 1`,
  );
  const ask = db.prepare<[string], { answer_json: string }>(
    'SELECT answer_json FROM ask_answers WHERE key = ?',
  );
  const storeAsk = db.prepare<[string, string, number]>(
    'INSERT OR REPLACE INTO ask_answers (key, answer_json, at) VALUES (?, ?, ?)',
  );

  return {
    /** The thread's summary for this version, model and question ('' for a plain summary), marked cached. */
    summary(threadId: number, version: string, model: string, question: string): GroundedView | undefined {
      const hit = summary.get(threadId, version, model, question);
      return hit ? cachedView(hit.answer_json) : undefined;
    },
    /** The newest plain summary of this version of the thread, whichever model gave it. */
    latestSummary(threadId: number, version: string): { model: string; view: GroundedView } | undefined {
      const hit = latest.get(threadId, version);
      return hit ? { model: hit.model, view: cachedView(hit.answer_json) } : undefined;
    },
    storeSummary(
      threadId: number,
      version: string,
      model: string,
      question: string,
      view: GroundedView,
    ): void {
      storeSummary.run(threadId, version, model, question, JSON.stringify(view), now());
    },
    /** The answer stored under an askKey, marked cached. */
    ask(key: string): GroundedView | undefined {
      const hit = ask.get(key);
      return hit ? cachedView(hit.answer_json) : undefined;
    },
    storeAsk(key: string, view: GroundedView): void {
      storeAsk.run(key, JSON.stringify(view), now());
    },
  };
}
