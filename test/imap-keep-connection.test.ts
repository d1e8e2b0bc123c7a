// The background sync keeps its IMAP connections logged in between rounds (issue 5), against a real Dovecot
// whose log and `doveadm who` count the logins and the open connections: news costs no new login (the sync's
// connection also IDLEs on the first folder waited on, INBOX beside an open folder has one of its own), a
// connection the server closes or loses is replaced and the loop carries on, a quiet IDLE outlives the socket
// timeout, and Stop closes every connection at once. The session (imap-session.ts) shares a login in progress
// and opens nothing once closed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { waitForChange } from '../electron/mail/imap/imap-idle.ts';
import { imapSession } from '../electron/mail/imap/imap-session.ts';
import { type SyncJob, startSyncJob } from '../electron/mail/imap/sync-job.ts';
import type { SyncWorkerMessage } from '../electron/mail/imap/sync-worker.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const run = promisify(execFile);
let server: Dovecot;
const user = 'test@example.com';

/** Logins Dovecot accepted so far (its log's "imap-login: Login:" lines). */
const logins = () =>
  readFileSync(join(server.dir, 'dovecot.log'), 'utf8').split(`imap-login: Info: Login: user=<${user}>`)
    .length - 1;

/** The user's connections open now, as Dovecot counts them. */
const connections = () => server.connections(user);

/** Another client's new mail, written straight into the Maildir: no login of its own to count. */
const deliver = (mailbox: string, id: string) =>
  server.seedMaildir(user, mailbox, [eml({ id, subject: id })]);

/**
 * A background sync of its own database, with a wait of 10 minutes: only news can start a second round. Its
 * stop waits 30 s before terminating the worker, longer than any stop that works takes on a busy machine.
 */
function startJob(focus: string | null) {
  const dbFile = join(tempDir(), 'skimmer.db');
  const db: Db = openDatabase(dbFile);
  const id = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'kept')").run().lastInsertRowid,
  );
  const messages: SyncWorkerMessage[] = [];
  const job: SyncJob = startSyncJob(dbFile, loginFor(server, id, 'kept'), (m) => messages.push(m), {
    maxIdleMs: 10 * 60_000,
    stopGraceMs: 30_000,
  });
  job.focus(focus);
  return {
    job,
    messages,
    synced: () => messages.filter((m) => m.type === 'synced').length,
    stored: (messageId: string) =>
      db.prepare('SELECT count(*) FROM messages WHERE message_id = ?').pluck().get(messageId) as number,
    async stop() {
      await job.stop();
      db.close();
    },
  };
}

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [eml({ id: '<k1@example.com>', subject: 'Kept 1' })]);
  const c = await server.client();
  try {
    await c.mailboxCreate('Work');
  } finally {
    await c.logout();
  }
  // Nobody else is connected when a test starts counting.
  while ((await connections()) > 0) await new Promise((r) => setTimeout(r, 50));
});

afterAll(async () => {
  await server?.stop();
});

describe('connections kept between rounds', () => {
  test('three pieces of news in INBOX, each stored, cost one login in all', async () => {
    const before = logins();
    const j = startJob(null);
    try {
      await expect.poll(j.synced).toBe(1);
      for (const n of [1, 2, 3]) {
        deliver('INBOX', `<inbox${n}@example.com>`);
        await expect.poll(() => j.stored(`<inbox${n}@example.com>`)).toBe(1);
      }
      // The round that stored the third is over too (its 'synced' comes after the commit).
      await expect.poll(j.synced).toBe(4);
      // The sync's connection is the one that waits on INBOX.
      expect(logins() - before).toBe(1);
      expect(await connections()).toBe(1);
      expect(j.messages.filter((m) => m.type === 'failed')).toEqual([]);
    } finally {
      await j.stop();
    }
  });

  test('with another folder open, news there and in INBOX costs two logins in all', async () => {
    const before = logins();
    const j = startJob('Work');
    try {
      await expect.poll(j.synced).toBe(1);
      // The first round saw Work, and the wait is on it and on INBOX.
      await expect.poll(connections).toBe(2);
      for (const [n, mailbox] of ['Work', 'INBOX', 'Work'].entries()) {
        deliver(mailbox, `<open${n}@example.com>`);
        await expect.poll(() => j.stored(`<open${n}@example.com>`)).toBe(1);
      }
      expect(logins() - before).toBe(2);
      expect(await connections()).toBe(2);
    } finally {
      await j.stop();
    }
  });

  test('Stop during IDLE ends the worker itself and leaves no connection open', async () => {
    const j = startJob('Work');
    try {
      await expect.poll(j.synced).toBe(1);
      await expect.poll(connections).toBe(2);
    } finally {
      await j.stop();
    }
    // Terminated would mean the worker was still running 30 s after Stop (sync-job.ts ends it then).
    expect(j.job.terminated).toBe(false);
    await expect.poll(connections).toBe(0);
  });

  test('a connection the server closes is replaced, and the next news still arrives', async () => {
    const j = startJob(null);
    try {
      await expect.poll(j.synced).toBe(1);
      await expect.poll(connections).toBe(1);
      const before = logins();
      // The server ends the session in IDLE (as a provider does after a while); Dovecot itself keeps running.
      await run('/usr/bin/doveadm', ['-c', join(server.dir, 'dovecot.conf'), 'kick', user]);
      await expect.poll(() => logins() - before).toBe(1);
      deliver('INBOX', '<kicked@example.com>');
      await expect.poll(() => j.stored('<kicked@example.com>')).toBe(1);
      expect(j.messages.filter((m) => m.type === 'failed')).toEqual([]);
    } finally {
      await j.stop();
    }
  });

  test('a server killed and started again: the loop retries, logs in anew and carries on', async () => {
    const j = startJob(null);
    try {
      await expect.poll(j.synced).toBe(1);
      await server.kill();
      await expect.poll(() => j.messages.some((m) => m.type === 'failed' && m.retryInMs !== null)).toBe(true);
      await server.start();
      deliver('INBOX', '<restarted@example.com>');
      await expect.poll(() => j.stored('<restarted@example.com>')).toBe(1);
      expect(await connections()).toBe(1);
    } finally {
      await j.stop();
    }
    // Retries back off (1 s doubling, sync-loop.ts): a restart that is slow on a busy machine costs one more wait.
  }, 120_000);
});

describe('the session', () => {
  test('two asks for a connection while it logs in share one login', async () => {
    const session = imapSession(loginFor(server, 1));
    try {
      const before = logins();
      const [a, b] = await Promise.all([session.connection(0), session.connection(0)]);
      expect(a).toBe(b);
      expect(await session.connection(0)).toBe(a);
      expect(logins() - before).toBe(1);
    } finally {
      session.close();
    }
  });

  test('after close() the connections are closed and no new one is opened', async () => {
    const session = imapSession(loginFor(server, 1));
    const kept = await session.connection(0);
    session.close();
    expect(kept.usable).toBe(false);
    await expect(session.connection(0)).rejects.toMatchObject({ code: 'cancelled' });
    await expect.poll(connections).toBe(0);
  });
});

describe('a quiet IDLE', () => {
  // Three socket timeouts with nothing said by the server (Dovecot's "Still here" comes every 2 minutes), counted
  // from when the IDLE is on: the login and SELECT before it take seconds on a busy machine.
  const socketMs = 1000;
  const quietMs = 3 * socketMs + socketMs / 2;

  test('outlives the socket timeout on the same connection and still hears the news', async () => {
    const session = imapSession(loginFor(server, 1), { connectMs: 5000, greetingMs: 5000, socketMs });
    const stop = new AbortController();
    try {
      const before = logins();
      let over = false;
      // No counts to compare and a wait of 10 minutes: only news on INBOX ends it.
      const outcome = waitForChange(session, stop.signal, {
        paths: ['INBOX'],
        maxWaitMs: 10 * 60_000,
      }).finally(() => {
        over = true;
      });
      // The wait's own connection: a login in progress is shared.
      const kept = await session.connection(0);
      await expect.poll(() => kept.idling).toBe(true);
      await new Promise((r) => setTimeout(r, quietMs));
      expect(over).toBe(false);
      expect(await session.connection(0)).toBe(kept);
      deliver('INBOX', '<quiet@example.com>');
      await outcome;
      expect(kept.usable).toBe(true);
      expect(logins() - before).toBe(1);
    } finally {
      stop.abort();
      session.close();
    }
  });

  test('an IDLE ended by the keepalive NOOP is started again and still hears the news', async () => {
    const session = imapSession(loginFor(server, 1), { connectMs: 5000, greetingMs: 5000, socketMs });
    const stop = new AbortController();
    try {
      // With no IDLE restart (as when it comes late on a busy machine), each socket timeout in IDLE sends a
      // NOOP, which ends the IDLE; a connection left out of IDLE would be closed at the next timeout.
      const kept = await session.connection(0);
      kept.maxIdleTime = false;
      let over = false;
      const outcome = waitForChange(session, stop.signal, {
        paths: ['INBOX'],
        maxWaitMs: 10 * 60_000,
      }).finally(() => {
        over = true;
      });
      await expect.poll(() => kept.idling).toBe(true);
      await new Promise((r) => setTimeout(r, quietMs));
      expect(over).toBe(false);
      expect(kept.usable).toBe(true);
      deliver('INBOX', '<noop@example.com>');
      await outcome;
      expect(await session.connection(0)).toBe(kept);
    } finally {
      stop.abort();
      session.close();
    }
  });
});
