// The long-running app orders the list by an answer on a thread of its own with its own connection
// (reads/read-thread.ts): it gives what the main thread gives, refuses what that refuses, and sees an
// answer the main connection stored since (another connection's commit moves its data_version).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepareJudgeAnswers } from '../electron/ai/triage/answers.ts';
import { type OrderRequest, prepareOrderedThreads } from '../electron/ai/triage/ordered-threads.ts';
import { prepareQuestionSets } from '../electron/ai/triage/question-sets.ts';
import { createApp } from '../electron/app.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { type ReadThread, startReadThread } from '../electron/reads/read-thread.ts';
import type { Question } from '../shared/judge.ts';
import { callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const questions: Question[] = [{ type: 'predicate', name: 'urgent', instructions: 'Urgent?' }];

describe('the ordered list’s thread', () => {
  const dir = tempDir();
  const file = join(dir, 'skimmer.db');
  let db: Db;
  let thread: ReadThread;
  let request: OrderRequest;
  const hashes: string[] = [];
  const store = (hash: string, probability: number) =>
    prepareJudgeAnswers(db).store(
      hash,
      'dec/m',
      questions,
      [{ type: 'predicate', name: 'urgent', probability }],
      'probabilities',
      null,
    );

  beforeAll(async () => {
    const mail = tempDir();
    for (let n = 1; n <= 6; n++) {
      const date = new Date(Date.UTC(2026, 0, n, 9)).toUTCString();
      writeFileSync(join(mail, `${n}.eml`), eml({ id: `<${n}@x>`, subject: `Case ${n}`, date }));
    }
    db = openDatabase(file);
    await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
    const setId = prepareQuestionSets(db).save({ name: 'Ops', questions }).id;
    hashes.push(...(db.prepare('SELECT content_hash FROM messages ORDER BY date').pluck().all() as string[]));
    for (const [i, hash] of hashes.entries()) store(hash, (i + 1) / 10);
    request = { setId, folderId: null, view: 'all', sortBy: 'urgent', filter: null, offset: 0, limit: 50 };
    thread = startReadThread(file);
  });
  afterAll(async () => {
    await thread.close();
    db.close();
  });

  test('gives the page the main thread gives', async () => {
    const here = prepareOrderedThreads(db).page(request);
    expect(here.threads.map((t) => t.subject)).toEqual([
      'Case 6',
      'Case 5',
      'Case 4',
      'Case 3',
      'Case 2',
      'Case 1',
    ]);
    expect(await thread.read('orderedThreads', request)).toEqual(here);
  });

  test('refuses a question the set does not have with the same sentence', async () => {
    await expect(thread.read('orderedThreads', { ...request, sortBy: 'missing' })).rejects.toThrow(
      'no such question to sort by',
    );
  });

  test('sees an answer the main connection stored since', async () => {
    expect((await thread.read('orderedThreads', request)).threads[0]?.subject).toBe('Case 6');
    store(hashes[0] as string, 1);
    expect((await thread.read('orderedThreads', request)).threads[0]?.subject).toBe('Case 1');
  });
});

describe('the long-running app', () => {
  const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  afterAll(() => app.close());

  test('answers a set it does not have with not_found through the thread', async () => {
    const r = await callRaw(app, 'judge:orderedThreads', { setId: 99, sortBy: 'urgent' });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
