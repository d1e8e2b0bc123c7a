// The list ordered by a triage answer over a whole folder or view (issue 17), on a real SQLite file with
// imported mail and cached answers: more conversations than one page, refusals last, ties newest first, the
// filter, and a thread's answer being its newest answered message's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Answer, Question } from '../../../shared/judge.ts';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../../mail/import/import-run.ts';
import { prepareJudgeAnswers } from './answers.ts';
import { type OrderRequest, prepareOrderedThreads } from './ordered-threads.ts';
import { prepareQuestionSets } from './question-sets.ts';

const questions: Question[] = [
  { type: 'predicate', name: 'urgent', instructions: 'Urgent?' },
  {
    type: 'score',
    name: 'urgency',
    instructions: 'How urgent?',
    levels: [{ label: 'none' }, { label: 'some' }, { label: 'now' }],
  },
  {
    type: 'choice',
    name: 'team',
    instructions: 'Which team?',
    choices: [{ value: 'billing' }, { value: 'true' }, { value: true }, { value: 'Zürich' }],
  },
];
const notes = 260; // more than a page of 100, and of the list's 200
const date = (n: number) =>
  new Date(Date.UTC(2026, 10, 1) + n * 60_000).toUTCString().replace('GMT', '+0000');

let db: Db;
let setId = 0;
let order: ReturnType<typeof prepareOrderedThreads>;
const threadOf = new Map<string, number>();
const folderOf = new Map<string, number>();

// Note n: urgent with probability (notes − n) / 1000, so the oldest come first when sorted, the opposite of the
// list's own order; every tenth note has no answers at all, note 7 refused every question.
function answersFor(n: number): Answer[] | null {
  if (n % 10 === 0) return null;
  if (n === 7) return questions.map((q) => ({ type: 'refusal', name: q.name }));
  const p = (notes - n) / 1000;
  const team = ['billing', 'true', true, 'Zürich'][n % 4] as string | boolean;
  return [
    { type: 'predicate', name: 'urgent', probability: p },
    { type: 'score', name: 'urgency', score: n % 3 },
    { type: 'choice', name: 'team', choice: team },
  ];
}

beforeAll(async () => {
  const dir = tempDir();
  const mail = tempDir();
  const inbox = join(mail, 'inbox');
  const trash = join(mail, 'Trash');
  mkdirSync(inbox);
  mkdirSync(trash);
  for (let n = 1; n <= notes; n++) {
    writeFileSync(join(inbox, `${n}.eml`), eml({ id: `<n${n}@x>`, subject: `Note ${n}`, date: date(n) }));
  }
  // A reply to note 5 that arrives last: the thread's newest message, with its own answer.
  writeFileSync(
    join(inbox, 'reply.eml'),
    eml({ id: '<r5@x>', subject: 'Re: Note 5', inReplyTo: '<n5@x>', date: date(notes + 1) }),
  );
  writeFileSync(join(trash, 'gone.eml'), eml({ id: '<gone@x>', subject: 'Gone', date: date(notes + 2) }));
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [inbox, trash], { onProgress: () => {}, isCancelled: () => false });
  setId = prepareQuestionSets(db).save({ name: 'Ops', questions }).id;
  const cache = prepareJudgeAnswers(db);
  const rows = db.prepare('SELECT message_id, content_hash, thread_id, folder_id FROM messages').all() as {
    message_id: string;
    content_hash: string;
    thread_id: number;
    folder_id: number;
  }[];
  for (const r of rows) {
    threadOf.set(r.message_id, r.thread_id);
    folderOf.set(r.message_id, r.folder_id);
    const n = Number(/^<n(\d+)@x>$/.exec(r.message_id)?.[1] ?? 0);
    const found =
      r.message_id === '<r5@x>'
        ? [{ type: 'predicate', name: 'urgent', probability: 0.999 } as Answer]
        : r.message_id === '<gone@x>'
          ? [{ type: 'predicate', name: 'urgent', probability: 1 } as Answer]
          : answersFor(n);
    if (found) cache.store(r.content_hash, 'dec/m', questions, found, 'probabilities', null);
  }
  order = prepareOrderedThreads(db);
});

const inboxFolder = () => folderOf.get('<n1@x>') as number;
const thread = (n: number) => threadOf.get(`<n${n}@x>`) as number;
const request = (over: Partial<OrderRequest>): OrderRequest => ({
  setId,
  folderId: inboxFolder(),
  view: 'all',
  sortBy: null,
  filter: null,
  offset: 0,
  limit: 100,
  ...over,
});
function everyPage(over: Partial<OrderRequest>): { total: number; ids: number[] } {
  const ids: number[] = [];
  let total = 0;
  for (let offset = 0; ; offset += 100) {
    const page = order.page(request({ ...over, offset }));
    total = page.total;
    ids.push(...page.threads.map((t) => t.id));
    if (page.threads.length < 100) return { total, ids };
  }
}
// The notes in the list's own order: note 5's thread is the newest (its reply came last), then by date.
const newestFirst = () => [5, ...Array.from({ length: notes }, (_, i) => notes - i).filter((n) => n !== 5)];
const answered = () =>
  Array.from({ length: notes }, (_, i) => i + 1).filter((n) => n % 10 !== 0 && n !== 7 && n !== 5);

describe('the list ordered by an answer', () => {
  test('sorts every conversation of the folder, across pages, most likely first', () => {
    const { total, ids } = everyPage({ sortBy: 'urgent' });
    // Note 5's thread counts its reply's answer (0.999): first. The refused note 7 comes last.
    expect(ids).toEqual([thread(5), ...answered().map(thread), thread(7)]);
    expect(total).toBe(ids.length);
    expect(total).toBe(notes - notes / 10);
  });

  test('leaves out conversations without an answer to the question', () => {
    const { ids } = everyPage({ sortBy: 'urgent' });
    expect(ids).not.toContain(thread(10));
    expect(ids).not.toContain(thread(260));
  });

  test('puts refusals last and keeps equal figures newest first', () => {
    // Scores are 0, 1 or 2 by n % 3; among equal scores the newest (highest n) comes first. Note 5 has no
    // score of its own newest message, so its thread takes the score of note 5 itself, and is the newest.
    const { ids } = everyPage({ sortBy: 'urgency' });
    const scored = newestFirst().filter((n) => n % 10 !== 0 && n !== 7);
    const expected = [2, 1, 0].flatMap((level) => scored.filter((n) => n % 3 === level)).map(thread);
    expect(ids).toEqual([...expected, thread(7)]);
  });

  test('the page carries the chips of its conversations', () => {
    const page = order.page(request({ sortBy: 'urgent', limit: 3 }));
    expect(page.threads.map((t) => t.id)).toEqual([thread(5), thread(1), thread(2)]);
    expect(page.answers.map((a) => a.threadId).sort()).toEqual([thread(1), thread(2), thread(5)].sort());
    const first = page.answers.find((a) => a.threadId === thread(1));
    expect(first?.answers.find((a) => a.name === 'urgent')).toEqual({
      type: 'predicate',
      name: 'urgent',
      probability: 0.259,
    });
  });

  test('filters by a predicate’s yes over every conversation', () => {
    // Probability (260 − n) / 1000 is at least 0.5 for no note: only note 5's reply (0.999) passes.
    expect(everyPage({ filter: { question: 'urgent', value: null } }).ids).toEqual([thread(5)]);
  });

  test('filters by a choice, keeping "true" and true apart, newest first without a sort', () => {
    const withTeam = (value: string | boolean) => everyPage({ filter: { question: 'team', value } }).ids;
    const expected = (rest: number) =>
      newestFirst()
        .filter((n) => n % 10 !== 0 && n !== 7 && n % 4 === rest)
        .map(thread);
    expect(withTeam('true')).toEqual(expected(1));
    expect(withTeam(true)).toEqual(expected(2));
    expect(withTeam('Zürich')).toEqual(expected(3));
  });

  test('sorts and filters at once', () => {
    const { ids, total } = everyPage({ sortBy: 'urgent', filter: { question: 'team', value: 'billing' } });
    const expected = answered()
      .filter((n) => n % 4 === 0)
      .map(thread);
    expect(ids).toEqual(expected);
    expect(total).toBe(expected.length);
  });

  test('a view covers its folders only: Trash is out of All mail, in the Trash view', () => {
    const all = everyPage({ folderId: null, view: 'all', sortBy: 'urgent' });
    expect(all.ids).not.toContain(threadOf.get('<gone@x>'));
    expect(all.ids[0]).toBe(thread(5));
    const trash = everyPage({ folderId: null, view: 'trash', sortBy: 'urgent' });
    expect(trash.ids).toEqual([threadOf.get('<gone@x>')]);
  });

  test('a page past the end is empty and still says how many there are', () => {
    const page = order.page(request({ sortBy: 'urgent', offset: 10_000 }));
    expect(page.threads).toEqual([]);
    expect(page.total).toBe(notes - notes / 10);
  });

  test('refuses a question the set does not have, or a choice it does not offer', () => {
    expect(() => order.page(request({ sortBy: 'team' }))).toThrow(/no such question to sort by/);
    expect(() => order.page(request({ filter: { question: 'team', value: 'sales' } }))).toThrow(
      /no such choice/,
    );
  });

  test('the next page sees an answer stored since, here or by another connection (an import worker)', () => {
    const hashOf = (id: string) =>
      db.prepare('SELECT content_hash FROM messages WHERE message_id = ?').pluck().get(id) as string;
    const first = () => order.page(request({ sortBy: 'urgent', limit: 1 })).threads[0]?.id;
    expect(first()).toBe(thread(5));
    prepareJudgeAnswers(db, () => Date.now() + 1000).store(
      hashOf('<n200@x>'),
      'dec/other',
      questions,
      [{ type: 'predicate', name: 'urgent', probability: 1 }],
      'probabilities',
      null,
    );
    expect(first()).toBe(thread(200));
    const other = new Database(db.name);
    try {
      prepareJudgeAnswers(other, () => Date.now() + 2000).store(
        hashOf('<n201@x>'),
        'dec/other',
        questions,
        [{ type: 'predicate', name: 'urgent', probability: 1 }],
        'probabilities',
        null,
      );
    } finally {
      other.close();
    }
    // Equal figures: the newer conversation first.
    expect(first()).toBe(thread(201));
  });
});
