// The fetcher thread of the IMAP first sync (issue 5: electron/mail/imap/imap-fetcher.ts) against a real Dovecot:
// it downloads what the sync thread's own connection would, batch after batch in the order asked; Stop
// mid-download ends it with the sync; a server that refuses it a connection leaves the sync to fetch on its
// own connection; and stopping the background sync ends it too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { MailFailure } from '../electron/mail/imap/imap-connect.ts';
import { fetchBatch } from '../electron/mail/imap/imap-fetch.ts';
import { type Fetcher, startFetcher } from '../electron/mail/imap/imap-fetcher.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { startSyncJob } from '../electron/mail/imap/sync-job.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const total = 600;
const message = (i: number) =>
  i % 3 === 0
    ? [
        `Message-ID: <f${i}@example.com>`,
        `Subject: Both ${i}`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Plain ${i}.`,
        '--b',
        'Content-Type: text/html; charset=utf-8',
        '',
        `<p>Html ${i}.</p>`,
        '--b--',
        '',
      ].join('\r\n')
    : eml({ id: `<f${i}@example.com>`, subject: `Fetched ${i}`, body: `Body ${i}.` });

/** The threads of this process named `name` (a worker's name is its thread's name). */
const threadsNamed = (name: string) =>
  readdirSync('/proc/self/task').filter((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim() === name;
    } catch {
      return false; // the thread ended while we looked
    }
  }).length;

let server: Dovecot;
const dir = tempDir();
let n = 0;
/** A fresh database with one IMAP account for the test Dovecot. */
function account(): { db: Db; dbFile: string; login: AccountLogin } {
  const dbFile = join(dir, `skimmer-${n++}.db`);
  const db = openDatabase(dbFile);
  const id = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'f')").run().lastInsertRowid,
  );
  return { db, dbFile, login: loginFor(server, id, 'f') };
}
const stored = (db: Db) => db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

beforeAll(async () => {
  server = await startDovecot();
  server.seedMaildir(
    'test@example.com',
    'INBOX',
    Array.from({ length: total }, (_, i) => message(i)),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('the fetcher thread', () => {
  test('downloads the batches asked for, in order, as the sync connection would, skipping known mail', async () => {
    const { db, login } = account();
    db.close();
    const client = await server.client();
    let fetcher: Fetcher | null = null;
    try {
      const box = await client.mailboxOpen('INBOX', { readOnly: true });
      const uids = ((await client.search({ all: true }, { uid: true })) || []).sort((a, b) => b - a);
      const batches = [uids.slice(0, 50), uids.slice(50, 250), uids.slice(250)];
      fetcher = await startFetcher(login, ['0 <none@example.com>']);
      expect(fetcher).not.toBeNull();
      const f = fetcher as Fetcher;
      const got = await Promise.all(batches.map((b) => f.fetch('INBOX', Number(box.uidValidity), b, [])));
      expect(got.map((g) => g.map((m) => m.uid))).toEqual(batches.map((b) => [...b].sort((x, y) => x - y)));
      const here = await fetchBatch(client, batches[1] as number[], () => false);
      expect(got[1]).toEqual(here);
      expect(got.flat().every((m) => m.raw?.includes(`Message-ID: ${m.messageId}`))).toBe(true);
      expect(got.flat().filter((m) => m.raw?.includes('multipart/alternative'))).toHaveLength(total / 3);

      // A message stored since the last request (as the sync thread tells it) is listed but not downloaded.
      const [first] = got[0] as [(typeof got)[0][0]];
      const again = await f.fetch(
        'INBOX',
        Number(box.uidValidity),
        [first.uid],
        [`${first.size} ${first.messageId}`],
      );
      expect(again).toMatchObject([{ uid: first.uid, messageId: first.messageId, raw: null }]);

      // Uids of another UIDVALIDITY would name other messages: refused.
      await expect(f.fetch('INBOX', Number(box.uidValidity) + 1, [first.uid], [])).rejects.toBeInstanceOf(
        MailFailure,
      );
    } finally {
      await fetcher?.close();
      await client.logout();
    }
  }, 60_000);

  test('a sync that uses it stores every message, the newest batch first', async () => {
    const { db, login } = account();
    let started: Fetcher | null = null;
    const firstBatch: string[] = [];
    try {
      const summary = await syncAccount(db, login, {
        batchSize: 100,
        fetcher: async (l, known) => {
          started = await startFetcher(l, known);
          return started;
        },
        onBatch: () => {
          if (firstBatch.length === 0) {
            firstBatch.push(...(db.prepare('SELECT message_id FROM messages').pluck().all() as string[]));
          }
        },
      });
      expect(started).not.toBeNull();
      expect(summary).toMatchObject({ added: total, messages: total });
      expect(stored(db)).toBe(total);
      expect(firstBatch).toHaveLength(50);
      expect(firstBatch).toContain(`<f${total - 1}@example.com>`);
      const both = db
        .prepare('SELECT body_text FROM messages WHERE message_id = ?')
        .pluck()
        .get('<f3@example.com>') as string;
      expect(both.trim()).toBe('Plain 3.');
      await expect.poll(() => threadsNamed('fetcher')).toBe(0);
    } finally {
      db.close();
    }
  }, 60_000);

  test('Stop mid-download ends the sync and the fetcher thread, and the next sync completes', async () => {
    const { db, login } = account();
    const stop = new AbortController();
    let fetcherThreads = 0;
    try {
      const failed = await syncAccount(db, login, {
        batchSize: 100,
        signal: stop.signal,
        onBatch: () => {
          fetcherThreads = threadsNamed('fetcher');
          stop.abort();
        },
      }).catch((e: unknown) => e);
      expect(failed).toMatchObject({ code: 'cancelled', retryable: false });
      expect(fetcherThreads).toBe(1);
      await expect.poll(() => threadsNamed('fetcher')).toBe(0);
      const partial = stored(db);
      expect(partial).toBeLessThan(total);
      const summary = await syncAccount(db, login);
      expect(summary.added).toBe(total - partial);
      expect(stored(db)).toBe(total);
    } finally {
      db.close();
    }
  }, 60_000);

  test('when the server refuses it a connection, the sync fetches on its own connection', async () => {
    const { db, login } = account();
    const refused: (Fetcher | null)[] = [];
    try {
      const summary = await syncAccount(db, login, {
        batchSize: 100,
        // Dovecot refuses this login as it would a connection over its limit: the fetcher cannot open.
        fetcher: async (l, known) => {
          const f = await startFetcher({ ...l, password: 'refused' }, known);
          refused.push(f);
          return f;
        },
      });
      expect(refused).toEqual([null]);
      expect(summary).toMatchObject({ added: total, messages: total });
      expect(stored(db)).toBe(total);
      await expect.poll(() => threadsNamed('fetcher')).toBe(0);
    } finally {
      db.close();
    }
  }, 60_000);

  test('stopping the background sync mid-download ends the fetcher thread it started', async () => {
    const { db, dbFile, login } = account();
    db.close();
    let fetcherThreads = -1;
    const job = startSyncJob(dbFile, login, (m) => {
      if (m.type === 'progress' && m.progress.done > 0 && fetcherThreads === -1) {
        fetcherThreads = threadsNamed('fetcher');
        void job.stop();
      }
    });
    await expect.poll(() => fetcherThreads).toBe(1);
    // A stop that waits too long ends with terminate(); the fetcher, a thread of that worker, ends with it.
    await job.stop();
    await expect.poll(() => threadsNamed('fetcher')).toBe(0);
  }, 60_000);
});
