// The long-running app does its slow reads on a thread of its own with its own connection (reads/read-thread.ts):
// a search and a page of a view give what the main thread gives, a refusal is the same typed error, it answers
// while the main connection holds a write transaction open, and the bridge answers other requests meanwhile.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { prepareQueries } from '../electron/mail/store/queries.ts';
import { prepareSearch, SearchQueryError } from '../electron/mail/store/search.ts';
import { type ReadThread, startReadThread } from '../electron/reads/read-thread.ts';
import { callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

describe('the read thread', () => {
  const dir = tempDir();
  const file = join(dir, 'skimmer.db');
  let db: Db;
  let thread: ReadThread;

  beforeAll(async () => {
    const mail = tempDir();
    for (let n = 1; n <= 6; n++) {
      writeFileSync(
        join(mail, `${n}.eml`),
        eml({
          id: `<${n}@x>`,
          subject: `Meeting ${n}`,
          date: new Date(Date.UTC(2026, 0, n, 9)).toUTCString(),
          body: n % 2 === 0 ? 'Thanks for the meeting and the budget.' : 'Thanks for the meeting.',
        }),
      );
    }
    db = openDatabase(file);
    await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
    thread = startReadThread(file);
  });
  afterAll(async () => {
    await thread.close();
    db.close();
  });

  test.each([
    ['meeting', 'newest'],
    ['budget', 'relevance'],
    ['is:unread after:2026-01-03', 'newest'],
  ] as const)('gives for %s (%s) the hits the main thread gives', async (query, order) => {
    const here = prepareSearch(db)(query, 50, order);
    expect(here.length).toBeGreaterThan(0);
    expect(await thread.read('search', query, 50, order)).toEqual(here);
  });

  test.each([
    [null, 'inbox'],
    [null, 'all'],
    [null, 'starred'],
  ] as const)(
    'gives a page of the %s %s view as the main thread does, with its count',
    async (folderId, view) => {
      const here = prepareQueries(db).threads(folderId, 0, 4, view);
      expect(await thread.read('threads', folderId, 0, 4, view)).toEqual(here);
    },
  );

  test('gives the page and the count of a folder as the main thread does', async () => {
    const folder = prepareQueries(db).folders()[0]?.id ?? 0;
    const here = prepareQueries(db).threads(folder, 2, 3, 'all');
    expect(here.total).toBe(6);
    expect(here.threads).toHaveLength(3);
    expect(await thread.read('threads', folder, 2, 3, 'all')).toEqual(here);
  });

  test('refuses a query it cannot read with the same SearchQueryError', async () => {
    const refused = thread.read('search', 'has:drive', 5);
    await expect(refused).rejects.toBeInstanceOf(SearchQueryError);
    await expect(refused).rejects.toThrow('Skimmer does not know the search operator has:drive');
  });

  test('answers while the main connection holds a write transaction open, with what was committed', async () => {
    const before = await thread.read('search', 'meeting', 50);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE messages SET unread = 0 WHERE message_id = '<6@x>'").run();
    try {
      expect(await thread.read('search', 'meeting', 50)).toEqual(before);
      expect(await thread.read('search', 'is:read', 50)).toEqual([]);
    } finally {
      db.exec('COMMIT');
    }
    expect((await thread.read('search', 'is:read', 50)).map((h) => h.messageId)).toEqual(['<6@x>']);
  });
});

describe('the read thread and the WAL', () => {
  test('copies what other connections wrote back into the database file, which none of them does', async () => {
    const file = join(tempDir(), 'skimmer.db');
    const writer = openDatabase(file);
    // As the app's main connection: it leaves checkpoints to the read thread.
    writer.pragma('wal_autocheckpoint = 0');
    const thread = startReadThread(file, 100);
    thread.start();
    try {
      writer.exec('CREATE TABLE pad (x BLOB)');
      const before = statSync(file).size;
      const pad = writer.prepare('INSERT INTO pad VALUES (randomblob(4000))');
      writer.transaction(() => {
        for (let i = 0; i < 500; i++) pad.run();
      })();
      // The new pages are in the WAL until a checkpoint copies them into the file.
      await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(before + 1_000_000);
    } finally {
      await thread.close();
      writer.close();
    }
  });
});

describe('the long-running app', () => {
  const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  afterAll(() => app.close());

  test('answers another request while a search is on its way to the search thread', async () => {
    const order: string[] = [];
    const search = callRaw(app, 'mail:search', { query: 'meeting' }).then((r) => {
      order.push('search');
      return r;
    });
    const folders = callRaw(app, 'mail:folders', {}).then(() => order.push('folders'));
    const [found] = await Promise.all([search, folders]);
    expect(found).toEqual({ ok: true, value: [] });
    expect(order).toEqual(['folders', 'search']);
  });

  test('answers a query it cannot read with invalid_request in its own sentence', async () => {
    const r = await callRaw(app, 'mail:search', { query: 'has:drive' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
