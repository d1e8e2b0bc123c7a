// The background sync as the app runs it (issue 5): a worker thread with its own connection keeps an
// account in sync against a real Dovecot: it picks up new mail through IDLE, pushes local changes soon after
// they are made, and survives the server being killed (backoff, then it carries on). The main thread only
// receives messages.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { type SyncJob, startSyncJob } from '../electron/mail/imap/sync-job.ts';
import type { SyncWorkerMessage } from '../electron/mail/imap/sync-worker.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let db: Db;
let job: SyncJob;
const messages: SyncWorkerMessage[] = [];
const dbFile = join(tempDir(), 'skimmer.db');
const count = () => db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    [1, 2, 3].map((i) => eml({ id: `<j${i}@example.com>`, subject: `Job ${i}` })),
  );
  db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'job')").run().lastInsertRowid,
  );
  const login = loginFor(server, accountId, 'job');
  job = startSyncJob(dbFile, login, (m) => messages.push(m));
});

afterAll(async () => {
  await job?.stop();
  db?.close();
  await server?.stop();
});

describe('the background sync', () => {
  test('syncs at start', async () => {
    await expect.poll(() => messages.some((m) => m.type === 'synced')).toBe(true);
    expect(count()).toBe(3);
  });

  test('picks up new mail through IDLE', async () => {
    const c = await server.client();
    try {
      await c.append('INBOX', eml({ id: '<j4@example.com>', subject: 'Job 4' }));
    } finally {
      await c.logout();
    }
    await expect.poll(count).toBe(4);
  });

  test('pushes a local change soon after it is made', async () => {
    const id = db
      .prepare("SELECT id FROM messages WHERE message_id = '<j1@example.com>'")
      .pluck()
      .get() as number;
    prepareMailActions(db).markRead([id], true);
    const seen = async () => {
      const c = await server.client();
      try {
        await c.mailboxOpen('INBOX', { readOnly: true });
        return ((await c.search({ seen: true }, { uid: true })) || []).length;
      } finally {
        await c.logout();
      }
    };
    await expect.poll(seen).toBe(1);
  });

  test('keeps trying while the server is down, and carries on when it is back', async () => {
    await server.kill();
    await expect.poll(() => messages.some((m) => m.type === 'failed' && m.retryInMs !== null)).toBe(true);
    // Written into the Maildir while the server is down, so the sync finds it when it is back, and no client of
    // the test's own logs in to a server just restarted (once, under a loaded CI run, this test ran out its
    // two minutes there).
    server.seedMaildir(server.users[0]?.user ?? '', 'INBOX', [
      eml({ id: '<j5@example.com>', subject: 'Job 5' }),
    ]);
    await server.start();
    await expect.poll(count).toBe(5);
    // Retries back off (1 s doubling, sync-loop.ts): a restart that is slow on a busy machine costs one more wait.
  }, 120_000);

  test('stops when asked', async () => {
    await job.stop();
    expect(messages.at(-1)).toEqual({ type: 'stopped' });
  });
});
