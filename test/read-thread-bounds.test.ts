// A search on the read thread is a bounded read (red-team item 8: `a* OR b* … z*` held the thread 3–19 s, and every
// read behind it): one past its deadline ends with SearchQueryError too_slow and the next read is answered; a newer
// search from the search box replaces the older (cancelled); a read held inside one step of SQLite, where no check
// reaches, is answered all the same and a new thread reads what waited behind it. To hold a read without timing,
// the main connection keeps the write lock while the read thread has a message's warnings to keep (as in
// read-thread-reads.test.ts): it waits for the lock inside SQLite. And "all that match this search" is resolved on
// the read thread, not on the main connection.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { prepareSearch, SearchQueryError } from '../electron/mail/store/search.ts';
import { type ReadThread, startReadThread } from '../electron/reads/read-thread.ts';
import { call, callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

function writeMail(dir: string): void {
  for (let n = 1; n <= 6; n++) {
    writeFileSync(
      join(dir, `${n}.eml`),
      eml({
        id: `<${n}@x>`,
        subject: n === 1 ? 'Budget meeting' : `Re: Budget meeting ${n}`,
        ...(n > 1 && { inReplyTo: '<1@x>' }),
        date: new Date(Date.UTC(2026, 0, n, 9)).toUTCString(),
        body: n % 2 === 0 ? 'Thanks for the meeting and the budget.' : 'Thanks for the meeting.',
      }),
    );
  }
  // Cc'd to Carol: a cc: search asks skimmer_cc_has of the connection that runs it.
  writeFileSync(
    join(dir, 'cc.eml'),
    [
      'From: Dan <dan@example.com>',
      'To: Bob <bob@example.com>',
      'Cc: Carol <carol@example.org>',
      'Subject: Lunch',
      'Date: Fri, 2 Jan 2026 12:00:00 +0000',
      'Message-ID: <cc@x>',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Lunch at noon?',
      '',
    ].join('\r\n'),
  );
}

const refusedWith = (reason: SearchQueryError['reason']) =>
  expect.objectContaining({ constructor: SearchQueryError, reason });

describe('a bounded read on the read thread', () => {
  const file = join(tempDir(), 'skimmer.db');
  let db: Db;
  let thread: ReadThread;
  let threadId = 0;
  let here: ReturnType<typeof prepareSearch>;

  beforeAll(async () => {
    const mail = tempDir();
    writeMail(mail);
    db = openDatabase(file);
    await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
    threadId = db
      .prepare("SELECT thread_id FROM messages WHERE message_id = '<1@x>'")
      .pluck()
      .get() as number;
    here = prepareSearch(db);
    // A thread let go 50 ms after a read should have stopped, so the held reads below are cut short soon.
    thread = startReadThread(file, 10_000, 50);
  });
  afterAll(async () => {
    await thread.close();
    db.close();
  });

  // Holds the read thread inside SQLite: the thread's messages have no warnings yet and the main connection keeps
  // the write lock, so `thread` waits for it (busy_timeout, 5 s) in one step no check reaches.
  async function whileHeld(run: () => Promise<void>): Promise<void> {
    db.prepare(
      'DELETE FROM message_warnings WHERE message_id IN (SELECT id FROM messages WHERE thread_id = ?)',
    ).run(threadId);
    db.exec('BEGIN IMMEDIATE');
    try {
      await run();
    } finally {
      db.exec('COMMIT');
    }
  }

  test('past its deadline ends with too_slow in a sentence, and the next read is answered', async () => {
    const late = thread.bounded({ ms: 0 }, 'search', 'meeting', 50, 'newest');
    await expect(late).rejects.toEqual(refusedWith('too_slow'));
    await expect(late).rejects.toThrow('That search took longer than 0 ms and was stopped.');
    expect(await thread.bounded({ ms: 60_000 }, 'search', 'meeting', 50, 'newest')).toEqual(
      here('meeting', 50),
    );
    expect(await thread.read('search', 'budget', 50, 'relevance')).toEqual(here('budget', 50, 'relevance'));
  });

  test('a newer search in the same lane replaces the older, which is cancelled; another lane is left alone', async () => {
    const older = thread.bounded({ ms: 60_000, lane: 'box' }, 'search', 'meeting', 50);
    const assistant = thread.bounded({ ms: 60_000 }, 'search', 'thanks', 50);
    const newer = thread.bounded({ ms: 60_000, lane: 'box' }, 'search', 'budget', 50);
    await expect(older).rejects.toEqual(refusedWith('cancelled'));
    await expect(older).rejects.toThrow('A newer search replaced this one.');
    expect(await newer).toEqual(here('budget', 50));
    expect(await assistant).toEqual(here('thanks', 50));
  });

  test('held inside SQLite past its deadline, it is answered too_slow and a new thread answers the reads behind it', async () => {
    await whileHeld(async () => {
      const held = thread.bounded({ ms: 50 }, 'thread', threadId);
      const behind = thread.read('search', 'meeting', 50);
      await expect(held).rejects.toEqual(refusedWith('too_slow'));
      // Still held: the old thread waits for the lock, the new one reads.
      expect(await behind).toEqual(here('meeting', 50));
      expect(await thread.read('threads', null, 0, 10, 'all')).toMatchObject({ total: 2 });
    });
  });

  test('held inside SQLite and replaced, it is let go and the newer search answered while it is still held', async () => {
    await whileHeld(async () => {
      const held = thread.bounded({ ms: 60_000, lane: 'box' }, 'thread', threadId);
      const newer = thread.bounded({ ms: 60_000, lane: 'box' }, 'search', 'budget', 50);
      await expect(held).rejects.toEqual(refusedWith('cancelled'));
      expect(await newer).toEqual(here('budget', 50));
    });
  });
});

describe('the long-running app', () => {
  const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  beforeAll(async () => {
    const mail = tempDir();
    writeMail(mail);
    await app.importFiles([mail], () => {}).done;
  });
  afterAll(() => app.close());

  test('answers the search the box replaced as cancelled, and the newer one with its hits', async () => {
    const [older, newer] = await Promise.all([
      callRaw(app, 'mail:search', { query: 'meeting' }),
      callRaw(app, 'mail:search', { query: 'lunch' }),
    ]);
    expect(older).toEqual({
      ok: false,
      error: { code: 'cancelled', message: 'A newer search replaced this one.' },
    });
    expect(newer).toMatchObject({ ok: true, value: [{ subject: 'Lunch' }] });
  });

  test('leaves the assistant’s search alone when the box searches', async () => {
    const [assistant, box] = await Promise.all([
      app.reads.search('meeting', 50),
      callRaw(app, 'mail:search', { query: 'lunch' }),
    ]);
    expect(assistant.map((h) => h.subject)).toEqual(['Re: Budget meeting 6']);
    expect(box).toMatchObject({ ok: true });
  });

  test.each([
    [
      `{${[...'abcdefghijklmnopqrstuvwxyz'].map((c) => `${c}* ${c}a* ${c}e* ${c}i*`).join(' ')}}`.slice(
        0,
        490,
      ),
      'words ending in *; Skimmer takes at most 6 in one search',
    ],
    ['to:\u0000budget', 'A search cannot hold control characters; this one has U+0000 (character 4).'],
  ])('refuses %j with invalid_request in a sentence, before it runs', async (query, sentence) => {
    const r = await callRaw(app, 'mail:search', { query });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(r.ok ? '' : r.error.message).toContain(sentence);
  });
});

describe('"all that match this search" in the long-running app', () => {
  const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  beforeAll(async () => {
    const mail = tempDir();
    writeMail(mail);
    await app.importFiles([mail], () => {}).done;
  });
  afterAll(() => app.close());

  test('is resolved on the read thread: the main connection runs no search of it', async () => {
    // A probe: any cc: search on the main connection would now fail; the read thread's connection is its own.
    app.db.function('skimmer_cc_has', () => {
      throw new Error('a search ran on the main connection');
    });
    const selection = { scope: { query: 'cc:carol' } };
    expect(await call(app, 'mail:selectionLabels', { selection })).toMatchObject({ threads: 1 });
    expect(await call(app, 'mail:bulk', { selection, action: { kind: 'star', starred: true } })).toEqual({
      threads: 1,
      changed: 1,
    });
    const starred = app.db.prepare("SELECT starred FROM messages WHERE message_id = '<cc@x>'").pluck().get();
    expect(starred).toBe(1);
    const hostile = { scope: { query: 'a* b*' } };
    const refused = await callRaw(app, 'mail:bulk', { selection: hostile, action: { kind: 'archive' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
