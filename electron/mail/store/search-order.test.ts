// The order of the search box's hits (DESIGN §11 "Search", issue 18): newest first whatever order the mail
// was stored in, a page of exactly `limit` threads, and relevance only when asked for.
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { parseMessage } from '../import/parse.ts';
import { prepareSearch } from './search.ts';
import { prepareStore } from './store.ts';

const day = 86_400_000;
const start = Date.UTC(2026, 0, 1, 9, 0, 0);
// 60 messages a day apart, stored in a shuffled order (a sync stores the newest first, an import file
// order): message n says "thanks for the meeting", every third one "budget" too, and the oldest one says
// "budget" all over, so it is the most relevant to that word.
const count = 60;
const order = Array.from({ length: count }, (_, n) => (n * 37) % count);

describe('the order of search hits', () => {
  let db: Db;
  let search: ReturnType<typeof prepareSearch>;

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), 'skimmer.db'));
    const store = prepareStore(db);
    const folder = db
      .prepare("INSERT INTO folders (account_id, name, source) VALUES (1, 'Inbox', 'inbox')")
      .run();
    for (const n of order) {
      const body =
        n === 0
          ? 'Budget, budget and budget: the budget for the budget meeting. Thanks.'
          : `Thanks for the meeting on day ${n}.${n % 3 === 0 ? ' The budget is attached.' : ''}`;
      const parsed = await parseMessage(
        Buffer.from(
          eml({
            id: `<m${n}@x>`,
            subject: n === 0 ? 'Budget budget' : `Note ${n}`,
            date: new Date(start + n * day).toUTCString(),
            // Messages 50..59 answer 49: one thread of eleven.
            ...(n > 49 ? { inReplyTo: '<m49@x>', references: '<m49@x>' } : {}),
            body,
          }),
        ),
      );
      db.transaction(() => {
        store.storeInFolder(Number(folder.lastInsertRowid), `file:${n}`, parsed);
        store.indexStored();
      })();
    }
    search = prepareSearch(db);
  });

  const days = (hits: { date: number }[]) => hits.map((h) => Math.round((h.date - start) / day));

  test('lists threads by their newest matching message, newest first, though stored in another order', () => {
    // Days 59..50 are one thread with 49: its newest message, day 59, stands for it.
    expect(days(search('meeting', 50))).toEqual([59, ...Array.from({ length: 49 }, (_, i) => 48 - i)]);
  });

  test('gives a page of exactly the limit, the newest threads', () => {
    expect(days(search('thanks', 5))).toEqual([59, 48, 47, 46, 45]);
    expect(search('thanks', 1)).toHaveLength(1);
  });

  test('gives every thread when fewer match than the limit', () => {
    // Every third day says budget; 51, 54 and 57 are in the thread whose newest budget message is 57.
    expect(days(search('budget', 200))).toEqual([
      57, 48, 45, 42, 39, 36, 33, 30, 27, 24, 21, 18, 15, 12, 9, 6, 3, 0,
    ]);
  });

  test('lists a query of operators alone newest first, a page of the limit', () => {
    expect(days(search('is:unread', 4))).toEqual([59, 48, 47, 46]);
    expect(days(search('is:unread after:2026-01-03 before:2026-01-06', 50))).toEqual([4, 3, 2]);
  });

  test('lists words within dates newest first, the dates kept to the day', () => {
    expect(days(search('thanks before:2026-01-04', 50))).toEqual([2, 1, 0]);
    expect(days(search('meeting after:2026-02-14 before:2026-02-17', 50))).toEqual([46, 45, 44]);
    // Days 21..48 every third, and the thread whose budget messages are 51, 54 and 57.
    expect(days(search('budget older_than:1d after:2026-01-20', 50, 'relevance'))).toHaveLength(11);
  });

  test('puts the most relevant thread first when asked, and the newest first otherwise', () => {
    expect(search('budget', 3, 'relevance')[0]?.subject).toBe('Budget budget');
    expect(search('budget', 50, 'relevance')).toHaveLength(18);
    expect(search('budget', 50).at(-1)?.subject).toBe('Budget budget');
  });

  test('cuts the snippet of each hit around the words, in either order', () => {
    const [newest] = search('budget', 1);
    const [best] = search('budget', 1, 'relevance');
    expect(newest?.snippet).toContain('budget is attached');
    expect(best?.snippet).toContain('Budget, budget');
  });

  // The walk by rank stops once the page is full (search.ts `bestByRank`); it must give the page that ranking every
  // match and keeping each thread's best would: here, with the eleven replies of one thread and many messages
  // of the same length, ranks tie often.
  test('by relevance, gives each page the ranking of every match would give, ties and threads included', () => {
    const everyMatch = db.prepare<[string, number], { id: number }>(
      `SELECT id FROM (
         SELECT m.id, messages_fts.rank AS score,
                row_number() OVER (PARTITION BY m.thread_id ORDER BY messages_fts.rank, m.date DESC, m.id DESC) AS n
           FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid & 2147483647
          WHERE messages_fts MATCH ?)
        WHERE n = 1 ORDER BY score, id DESC LIMIT ?`,
    );
    let compared = 0;
    for (const words of ['meeting', 'thanks', 'budget', 'meeting budget', 'day']) {
      for (const limit of [1, 2, 3, 7, 12, 50]) {
        const expected = everyMatch.all(words, limit).map((r) => r.id);
        expect(expected.length).toBeGreaterThan(0);
        expect(search(words, limit, 'relevance').map((h) => h.id)).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBe(30);
  });
});
