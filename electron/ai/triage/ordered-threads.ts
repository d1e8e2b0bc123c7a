// The thread list ordered by a triage answer over the whole folder or view, in SQL (issue 17): every
// conversation that has an answer takes part, not only the loaded page. A thread's answer to a question is
// that of its newest message with an answer to it (any model, the newest), as the chips show it. Sorted
// highest first (a predicate's probability, a score's level), refusals last, ties newest first; a filter
// keeps a predicate's yes (at least one half, as the chips mark it) or one value of a choice. Reads only.
import type {
  MailView,
  MessageAnswers,
  ThreadSummary,
  TriageOrderFilter,
} from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import { AssistantError } from '../assistant-error.ts';
import { type Question, questionHash } from '../judge/questions.ts';
import { prepareMessageAnswers } from './message-answers.ts';
import { prepareQuestionSets } from './question-sets.ts';

export type OrderedPage = {
  total: number;
  threads: ThreadSummary[];
  answers: (MessageAnswers & { threadId: number })[];
};
export type OrderRequest = {
  setId: number;
  folderId: number | null;
  view: MailView;
  sortBy: string | null;
  filter: TriageOrderFilter | null;
  offset: number;
  limit: number;
};

// Per thread, the newest answer to one question: messages are found by content (messages_by_content) from the
// answers to that question (judge_answers_by_question), so the cost follows the answers, not the mailbox.
const newestPerThread = (name: string, hash: string) => `
  ${name} AS (
    SELECT thread_id, answer_json FROM (
      SELECT m.thread_id, a.answer_json,
        row_number() OVER (PARTITION BY m.thread_id ORDER BY m.date DESC, m.id DESC, a.at DESC) AS r
      FROM judge_answers a JOIN message_keys m ON m.content_hash = a.content_hash
      WHERE a.question_hash = ${hash})
    WHERE r = 1)`;

type Shape = { sort: boolean; filter: 'predicate' | 'choice' | null; starred: boolean };

function orderSql(shape: Shape): string {
  const ctes = [
    ...(shape.sort ? [newestPerThread('sorted', '@sortHash')] : []),
    ...(shape.filter ? [newestPerThread('filtered', '@filterHash')] : []),
  ];
  // A refusal (or any answer without a figure) has a null key: last.
  const key = shape.sort
    ? `CASE s.answer_json ->> '$.type' WHEN 'predicate' THEN s.answer_json ->> '$.probability'
         WHEN 'score' THEN s.answer_json ->> '$.score' END`
    : 'NULL';
  const passes =
    shape.filter === 'predicate'
      ? `AND f.answer_json ->> '$.type' = 'predicate' AND f.answer_json ->> '$.probability' >= 0.5`
      : shape.filter === 'choice'
        ? `AND f.answer_json ->> '$.type' = 'choice' AND f.answer_json -> '$.choice' = @choice`
        : '';
  // The mail through the store's views (message_keys, thread_keys: migration 0043), as ai/ names no mail table.
  // The scope as one semi-join over messages_by_folder_thread rather than a probe of each thread's messages.
  return `WITH ${ctes.join(',')}
    SELECT t.id FROM thread_keys t
      ${shape.sort ? 'JOIN sorted s ON s.thread_id = t.id' : ''}
      ${shape.filter ? 'JOIN filtered f ON f.thread_id = t.id' : ''}
     WHERE t.message_count > 0 ${passes}
       AND t.id IN (SELECT thread_id FROM message_keys
                     WHERE folder_id IN (SELECT value FROM json_each(@folders))${shape.starred ? ' AND starred = 1' : ''})
     ORDER BY ${key} IS NULL, ${key} DESC, t.last_date DESC, t.id DESC`;
}

export function prepareOrderedThreads(db: Db) {
  const sets = prepareQuestionSets(db);
  const queries = prepareQueries(db);
  const answers = prepareMessageAnswers(db);
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const statementFor = (shape: Shape) => {
    const key = JSON.stringify(shape);
    let found = statements.get(key);
    if (!found) {
      found = db.prepare(orderSql(shape)).pluck();
      statements.set(key, found);
    }
    return found;
  };
  // The whole ordering costs one pass over the question's answers (bench/triage-order.ts); it is kept until the
  // database changes, so scrolling through it reads slices. A change made on this connection moves
  // total_changes(); one another connection committed (the main process's, an import or sync worker's) moves
  // data_version.
  const changes = db.prepare('SELECT total_changes()').pluck();
  const stampOf = () => `${changes.get() as number}:${db.pragma('data_version', { simple: true }) as number}`;
  const kept = new Map<string, { stamp: string; ids: number[] }>();
  const keptOrders = 4;
  function ordering(shape: Shape, params: Record<string, unknown>): number[] {
    const key = JSON.stringify([shape, params]);
    const stamp = stampOf();
    const found = kept.get(key);
    if (found?.stamp === stamp) return found.ids;
    const ids = statementFor(shape).all(params) as number[];
    kept.delete(key);
    kept.set(key, { stamp, ids });
    for (const old of kept.keys()) if (kept.size > keptOrders) kept.delete(old);
    return ids;
  }

  // A refusal names neither the question nor the value: what a refused request held is not echoed.
  function question(questions: readonly Question[], name: string, types: Question['type'][]): Question {
    const q = questions.find((candidate) => candidate.name === name);
    if (!q || !types.includes(q.type)) {
      const what = types.includes('score') ? 'sort by' : 'filter by';
      throw new AssistantError('invalid', `This question set has no such question to ${what}.`);
    }
    return q;
  }

  /** One page of the ordered list, its total, and the chips' answers for the page. */
  function page(r: OrderRequest): OrderedPage {
    const set = sets.get(r.setId);
    const sortQ = r.sortBy === null ? null : question(set.questions, r.sortBy, ['predicate', 'score']);
    const filterQ =
      r.filter === null ? null : question(set.questions, r.filter.question, ['predicate', 'choice']);
    if (filterQ?.type === 'choice' && !filterQ.choices.some((c) => c.value === r.filter?.value)) {
      throw new AssistantError('invalid', 'The question has no such choice to filter by.');
    }
    const shape: Shape = {
      sort: sortQ !== null,
      filter: filterQ === null ? null : filterQ.type === 'choice' ? 'choice' : 'predicate',
      starred: r.folderId === null && r.view === 'starred',
    };
    const folders = r.folderId === null ? queries.viewFolders(r.view) : [r.folderId];
    const params: Record<string, unknown> = {
      folders: JSON.stringify(folders),
      ...(sortQ ? { sortHash: questionHash(sortQ) } : {}),
      ...(filterQ ? { filterHash: questionHash(filterQ) } : {}),
      // As `->` gives it: the choice's JSON text, so "true" and true stay apart (choice values are typed).
      ...(shape.filter === 'choice' ? { choice: JSON.stringify(r.filter?.value) } : {}),
    };
    const all = ordering(shape, params);
    const ids = all.slice(r.offset, r.offset + r.limit);
    const total = all.length;
    return {
      total,
      threads: queries.summaries(ids),
      answers: ids.length > 0 ? answers.forThreads(r.setId, ids) : [],
    };
  }

  return { page };
}
