// IDLE on the selected folder (issue 5), against a real Dovecot: the folder the page opens is one its
// account's background sync waits on, so mail that another client puts there arrives without a "Sync now";
// INBOX is waited on beside it, so new mail there shows up whatever folder is open; with no folder open, or
// when the open folder is gone from the server, the wait is on INBOX alone. A server that allows only one
// connection leaves the wait on the open folder.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { openDatabase } from '../electron/db/open.ts';
import { waitForChange } from '../electron/mail/imap/imap-idle.ts';
import { imapSession } from '../electron/mail/imap/imap-session.ts';
import { type SyncJob, startSyncJob } from '../electron/mail/imap/sync-job.ts';
import type { SyncWorkerMessage } from '../electron/mail/imap/sync-worker.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let app: App;
let accountId = 0;
const statuses: Extract<StreamEvent, { type: 'account_status' }>[] = [];
const stored = (messageId: string) =>
  app.db.prepare('SELECT count(*) FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const folderOf = (path: string) =>
  app.db
    .prepare(
      `SELECT f.id FROM folders f JOIN imap_folders i ON i.folder_id = f.id WHERE f.account_id = ? AND i.path = ?`,
    )
    .pluck()
    .get(accountId, path) as number | undefined;

async function onServer(work: (c: Awaited<ReturnType<Dovecot['client']>>) => Promise<unknown>) {
  const c = await server.client();
  try {
    await work(c);
  } finally {
    await c.logout();
  }
}

/** "Sync now" (with the background sync running, it wakes it) until its round ends. */
function syncNow(): Promise<void> {
  return new Promise((resolve, reject) => {
    const seen: StreamEvent[] = [];
    let streamId: string | null = null;
    const check = () => {
      const end = seen.find((e) => e.type === 'sync_done' || e.type === 'error');
      if (!end) return;
      off();
      if (end.type === 'sync_done') resolve();
      else reject(new Error(`the sync ended with ${JSON.stringify(end)}`));
    };
    const off = app.streams.listen((m) => {
      if (m.streamId !== streamId) return;
      seen.push(StreamMessage.parse(m).event);
      check();
    });
    call(app, 'account:sync', { id: accountId }).then(({ streamId: id }) => {
      streamId = id;
    }, reject);
  });
}

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [eml({ id: '<i1@example.com>', subject: 'Inbox 1' })]);
  await onServer((c) => c.mailboxCreate('Projects'));
  await server.append('Projects', [eml({ id: '<p1@example.com>', subject: 'Project 1' })]);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const { streamId } = await call(app, 'account:watch', {});
  app.streams.listen((m) => {
    const parsed = StreamMessage.parse(m);
    if (parsed.streamId === streamId && parsed.event.type === 'account_status') statuses.push(parsed.event);
  });
  accountId = (
    await call(app, 'account:add', {
      name: 'focused',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: server.host, port: server.port, tls: 'none' },
    })
  ).id;
  // The first round is over: every folder has been seen once.
  while (!statuses.some((s) => s.state === 'synced')) await new Promise((r) => setTimeout(r, 50));
});

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

describe('waiting for news on the folder the page shows', () => {
  test('mail that reached a folder before it was opened is fetched when it is opened', async () => {
    await server.append('Projects', [eml({ id: '<p2@example.com>', subject: 'Project 2' })]);
    expect(await call(app, 'account:focus', { folderId: folderOf('Projects') ?? 0 })).toEqual({
      watching: true,
    });
    await expect.poll(() => stored('<p2@example.com>')).toBe(1);
  });

  test('new mail in the open folder arrives without asking', async () => {
    await server.append('Projects', [eml({ id: '<p3@example.com>', subject: 'Project 3' })]);
    await expect.poll(() => stored('<p3@example.com>')).toBe(1);
  });

  test('with no folder open, the wait is on INBOX again', async () => {
    expect(await call(app, 'account:focus', { folderId: null })).toEqual({ watching: false });
    await server.append('INBOX', [eml({ id: '<i2@example.com>', subject: 'Inbox 2' })]);
    await expect.poll(() => stored('<i2@example.com>')).toBe(1);
  });

  test('an open folder that is gone from the server falls back to INBOX', async () => {
    await call(app, 'account:focus', { folderId: folderOf('Projects') ?? 0 });
    await onServer((c) => c.mailboxDelete('Projects'));
    // A round that sees Projects gone waits on INBOX after it (idle-folder.ts).
    await syncNow();
    await server.append('INBOX', [eml({ id: '<i3@example.com>', subject: 'Inbox 3' })]);
    await expect.poll(() => stored('<i3@example.com>')).toBe(1);
  });

  test('a folder that is not in the mailbox is not found', async () => {
    expect(await callRaw(app, 'account:focus', { folderId: 9999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('INBOX news while another folder is open', () => {
  beforeAll(async () => {
    await onServer((c) => c.mailboxCreate('Work'));
    await server.append('Work', [eml({ id: '<w1@example.com>', subject: 'Work 1' })]);
    await syncNow(); // the last sync has seen Work, so the wait can be on it
    expect(await call(app, 'account:focus', { folderId: folderOf('Work') ?? 0 })).toEqual({ watching: true });
  });

  test('new mail in the open folder still arrives without asking', async () => {
    await server.append('Work', [eml({ id: '<w2@example.com>', subject: 'Work 2' })]);
    await expect.poll(() => stored('<w2@example.com>')).toBe(1);
  });

  test('new INBOX mail arrives without asking while Work is open', async () => {
    // No local change is queued, and the next round would come after 5 minutes (maxIdleMs unset): only the
    // wait on INBOX beside Work explains a sync within seconds.
    await server.append('INBOX', [eml({ id: '<i4@example.com>', subject: 'Inbox 4' })]);
    await expect.poll(() => stored('<i4@example.com>')).toBe(1);
  });

  test('a change in the open folder wakes the sync after INBOX news did', async () => {
    await server.append('Work', [eml({ id: '<w3@example.com>', subject: 'Work 3' })]);
    await expect.poll(() => stored('<w3@example.com>')).toBe(1);
  });
});

describe('a server that allows one connection per user', () => {
  let limited: Dovecot;
  const refusal = 'Maximum number of connections from user+IP exceeded';
  const refusals = () => readFileSync(join(limited.dir, 'dovecot.log'), 'utf8').split(refusal).length - 1;
  /** Another client's new mail, written straight into the Maildir: the one connection allowed is taken. */
  const deliver = (mailbox: string, id: string) =>
    limited.seedMaildir('test@example.com', mailbox, [eml({ id, subject: id })]);

  beforeAll(async () => {
    limited = await startDovecot();
    await limited.append('INBOX', [eml({ id: '<l1@example.com>', subject: 'Limited 1' })]);
    await (async () => {
      const c = await limited.client();
      try {
        await c.mailboxCreate('Work');
      } finally {
        await c.logout();
      }
    })();
    // Dovecot's own limit (mail_max_userip_connections, 10 by default), set to 1 by a configuration reload;
    // the new login processes have it once a second connection is refused.
    appendFileSync(join(limited.dir, 'dovecot.conf'), 'mail_max_userip_connections = 1\n');
    process.kill(limited.pid as number, 'SIGHUP');
    const secondRefused = async () => {
      const first = await limited.client();
      try {
        await (await limited.client()).logout();
        return false;
      } catch {
        return true;
      } finally {
        await first.logout();
      }
    };
    for (let tries = 0; !(await secondRefused()); tries++) {
      if (tries === 50) throw new Error('Dovecot did not take mail_max_userip_connections = 1');
      await new Promise((r) => setTimeout(r, 200));
    }
    // The probes are over for Dovecot too before a test counts refusals: the one refused is in the log (written
    // by Dovecot's log process, after the client has its answer), and theirs are no longer connections (one
    // still counted would take the one a test's first connection needs).
    while (refusals() === 0 || (await limited.connections()) > 0) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await limited?.stop();
  });

  test('a refused INBOX connection leaves the wait on the open folder, not failed', async () => {
    const before = refusals();
    const stop = new AbortController();
    const session = imapSession(loginFor(limited, 1));
    // Nothing else ends this wait within the test: no counts to compare, 10 minutes at most.
    const outcome = waitForChange(session, stop.signal, {
      paths: ['Work', 'INBOX'],
      maxWaitMs: 10 * 60_000,
    }).then(
      () => 'news',
      () => 'failed',
    );
    try {
      // The wait's INBOX connection is refused only once its first one has selected Work, so the news below
      // comes after that SELECT: what IDLE reports.
      await expect.poll(refusals).toBeGreaterThan(before);
      deliver('Work', '<l2@example.com>');
      expect(await outcome).toBe('news');
    } finally {
      stop.abort();
      session.close();
    }
  });

  test('the background sync waits on the open folder and wakes on its news', async () => {
    const dbFile = join(tempDir(), 'skimmer.db');
    const db = openDatabase(dbFile);
    const id = Number(
      db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'limited')").run().lastInsertRowid,
    );
    const messages: SyncWorkerMessage[] = [];
    const synced = () => messages.filter((m) => m.type === 'synced').length;
    let job: SyncJob | null = null;
    // The last test closed its connection without a LOGOUT: Dovecot counts it until its imap process has ended,
    // and the sync's first login would be refused meanwhile.
    await expect.poll(() => limited.connections()).toBe(0);
    const before = refusals();
    try {
      // A wait of 10 minutes: within the test only news on Work can start the second sync.
      job = startSyncJob(dbFile, loginFor(limited, id, 'limited'), (m) => messages.push(m), {
        maxIdleMs: 10 * 60_000,
      });
      // Sent before the first sync ends: the wait after it is on Work, then INBOX.
      job.focus('Work');
      await expect.poll(synced).toBe(1);
      await expect.poll(refusals).toBeGreaterThan(before);
      deliver('Work', '<l3@example.com>');
      const has = (messageId: string) =>
        db.prepare('SELECT count(*) FROM messages WHERE message_id = ?').pluck().get(messageId);
      await expect.poll(() => has('<l3@example.com>')).toBe(1);
      expect(messages.filter((m) => m.type === 'failed')).toEqual([]);
    } finally {
      await job?.stop();
      db.close();
    }
  });
});
