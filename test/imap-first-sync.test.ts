// The first minutes with a real account (issue 28, section 3), against a real Dovecot on loopback: a first sync
// reports each folder's progress (counts, rate, time left) as it goes, stores the newest mail first, and one
// stopped (an abort) or killed (SIGKILL of the process) is resumed by the next sync without downloading again
// what it stored: Dovecot's own count of the message bodies it sent (body_count in its log) is what is left.
// After the first sync, the round's new mail in INBOX is summarised for the notification.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { MailFailure } from '../electron/mail/imap/imap-connect.ts';
import { type SyncProgress, syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const inbox = 400;
const sent = 30;
const big = 2000;
const minute = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString();
const message = (i: number, box = 'n') =>
  eml({ id: `<${box}${i}@example.com>`, subject: `Message ${i}`, date: minute(i), body: `Body ${i}.` });

let server: Dovecot;

beforeAll(async () => {
  server = await startDovecot({
    users: [
      { user: 'test@example.com', pass: 'secret' },
      { user: 'stop@example.com', pass: 'secret' },
      { user: 'big@example.com', pass: 'secret' },
    ],
  });
  server.seedMaildir(
    'test@example.com',
    'INBOX',
    Array.from({ length: inbox }, (_, i) => message(i)),
  );
  server.seedMaildir(
    'test@example.com',
    'Sent',
    Array.from({ length: sent }, (_, i) => message(i, 's')),
    ['\\Seen'],
  );
  server.seedMaildir(
    'stop@example.com',
    'INBOX',
    Array.from({ length: inbox }, (_, i) => message(i)),
  );
  server.seedMaildir(
    'big@example.com',
    'INBOX',
    Array.from({ length: big }, (_, i) => message(i, 'b')),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

function account(user = 'test@example.com'): { db: Db; dbFile: string; login: AccountLogin } {
  const dbFile = join(tempDir(), 'skimmer.db');
  const db = openDatabase(dbFile);
  const id = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  return { db, dbFile, login: { ...loginFor(server, id), user } };
}

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;
const storedIds = (db: Db) =>
  new Set(db.prepare('SELECT message_id FROM messages').pluck().all() as string[]);

// Dovecot writes a session's line after the client has its answer: the log is read once every session that
// logged in has its Disconnected line (test/README.md, "Waiting in the IMAP suites").
const logLines = () => readFileSync(join(server.dir, 'dovecot.log'), 'utf8').split('\n');
async function settledLog(): Promise<string[]> {
  await expect
    .poll(() => {
      const lines = logLines();
      const logins = lines.filter((l) => /imap-login: Info: Login: user=</.test(l)).length;
      const ends = lines.filter((l) => /imap\([^)]*\)<\d+><[^>]*>: Info: Disconnected/.test(l)).length;
      return ends === logins;
    })
    .toBe(true);
  return logLines();
}
/** Message bodies Dovecot sent in the sessions that ended after the first `from` lines of its log. */
const bodiesSent = (lines: string[], from: number) =>
  lines
    .slice(from)
    .map((l) => Number(/ body_count=(\d+)/.exec(l)?.[1] ?? 0))
    .reduce((a, b) => a + b, 0);

describe('the first sync of a real account', () => {
  test('reports each folder as it goes and stores the newest mail first', async () => {
    const { db, login } = account();
    const events: SyncProgress[] = [];
    // After each committed batch of Inbox: which of its messages are stored (by their number, 0 the oldest).
    const stored: number[][] = [];
    const summary = await syncAccount(db, login, {
      onProgress: (p) => events.push(p),
      onBatch: (folder) => {
        if (folder !== 'Inbox') return;
        const ids = [...storedIds(db)].filter((m) => m.startsWith('<n'));
        stored.push(ids.map((m) => Number(m.slice(2, m.indexOf('@')))).sort((a, b) => a - b));
      },
    });
    expect(summary).toMatchObject({ added: inbox + sent, newMail: { firstSync: true, count: 0 } });

    // Every folder reported; the Inbox from nothing stored to all of it, never going back.
    const folders = new Set(events.map((e) => e.folder));
    expect(folders).toEqual(new Set(['Inbox', 'Sent', 'Drafts', 'Archive', 'Trash']));
    const of = (folder: string) => events.filter((e) => e.folder === folder);
    const box = of('Inbox');
    expect(box[0]).toMatchObject({ done: 0, total: inbox, etaSeconds: null });
    expect(box.at(-1)).toMatchObject({ done: inbox, total: inbox, etaSeconds: 0 });
    expect(box.every((e, i) => e.total === inbox && e.done >= (box[i - 1]?.done ?? 0))).toBe(true);
    // Part way, a rate and a time left from it.
    const between = box.filter((e) => e.done > 0 && e.done < inbox);
    expect(between.length).toBeGreaterThan(0);
    for (const e of between) {
      expect(e.perSecond).toBeGreaterThan(0);
      expect(e.etaSeconds).toBeGreaterThanOrEqual(0);
    }
    expect(of('Sent').at(-1)).toMatchObject({ done: sent, total: sent });
    expect(of('Trash').at(-1)).toMatchObject({ done: 0, total: 0 });

    // Newest first: the first batch is the newest 50, and each batch after it the next older ones.
    expect(stored[0]).toEqual(Array.from({ length: 50 }, (_, i) => inbox - 50 + i));
    for (const numbers of stored) expect(numbers).toEqual(numbers.map((_, i) => inbox - numbers.length + i));
    expect(stored.at(-1)?.length).toBe(inbox);

    // New mail after it: the round's unread INBOX arrivals, newest first; read ones and Sent's are not new.
    await server.append('INBOX', [message(1000), message(1001)]);
    await server.append('INBOX', [message(1002)], ['\\Seen']);
    await server.append('Sent', [message(1003, 's')]);
    const next = await syncAccount(db, login);
    expect(next.added).toBe(4);
    expect(next.newMail).toEqual({
      firstSync: false,
      count: 2,
      latest: [
        { from: 'Alice', subject: 'Message 1001' },
        { from: 'Alice', subject: 'Message 1000' },
      ],
    });
    db.close();
  }, 120_000);

  test('a stopped first sync is resumed without downloading again what it stored', async () => {
    const { db, login } = account('stop@example.com');
    const controller = new AbortController();
    const stopped = await syncAccount(db, login, {
      signal: controller.signal,
      onBatch: () => controller.abort(),
    }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(MailFailure);
    expect(stopped).toMatchObject({ code: 'cancelled' });
    const partial = count(db, 'SELECT count(*) FROM messages');
    expect(partial).toBeGreaterThanOrEqual(50);
    expect(partial).toBeLessThan(inbox);

    const from = (await settledLog()).length;
    const events: SyncProgress[] = [];
    const summary = await syncAccount(db, login, { onProgress: (p) => events.push(p) });
    expect(summary.added).toBe(inbox - partial);
    expect(count(db, 'SELECT count(*) FROM messages')).toBe(inbox);
    // The Inbox's progress counts only what was left; the mail it brings is still a first sync's.
    expect(events.find((e) => e.folder === 'Inbox')).toMatchObject({ done: 0, total: inbox - partial });
    expect(summary.newMail).toMatchObject({ firstSync: true, count: 0 });
    expect(bodiesSent(await settledLog(), from)).toBe(inbox - partial);
    db.close();
  }, 120_000);

  test('a first sync whose process is killed is resumed without downloading again what it stored', async () => {
    const { db, dbFile, login } = account('big@example.com');
    const child = spawn(process.execPath, [join(import.meta.dirname, 'support', 'sync-once.ts')], {
      env: { ...process.env, SKIMMER_SYNC_ONCE: JSON.stringify({ dbFile, login }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Killed as soon as its first batch is committed: no chance to finish or to close anything.
    child.stdout.once('data', () => child.kill('SIGKILL'));
    expect(await exited).toBe('SIGKILL');
    const partial = count(db, 'SELECT count(*) FROM messages');
    expect(partial).toBeGreaterThanOrEqual(50);
    expect(partial).toBeLessThan(big);

    const from = (await settledLog()).length;
    const summary = await syncAccount(db, login);
    expect(summary.added).toBe(big - partial);
    expect(storedIds(db).size).toBe(big);
    expect(bodiesSent(await settledLog(), from)).toBe(big - partial);
    db.close();
  }, 120_000);
});
