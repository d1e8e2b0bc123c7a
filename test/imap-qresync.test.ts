// Incremental IMAP sync with QRESYNC (issue 5, RFC 7162) against a real Dovecot on loopback. Two databases
// follow the same mailbox: one synced with QRESYNC enabled, one with it off (as with a server without it).
// After each change by another client both must store the same thing; the commands each sync sent (from
// imapflow's log) say which path it took.
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { imapClient } from '../electron/mail/imap/imap-connect.ts';
import { type SyncOptions, syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { type ParseOptions, parseMessage } from '../electron/mail/import/parse.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const seeded = 300;
const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString();
const message = (i: number) =>
  eml({ id: `<q${i}@example.com>`, subject: `Message ${i}`, date: day(i), body: `Body of message ${i}.` });

let server: Dovecot;
let withQresync: Db;
let without: Db;
let login: AccountLogin;

function newDatabase(): Db {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run();
  return db;
}

/** A sync whose client records every command it sends. */
async function sync(db: Db, qresync: boolean, opts: SyncOptions & { listStatus?: boolean } = {}) {
  const sent: string[] = [];
  const record = (e: { src?: string; msg?: string }) => {
    if (e.src === 'c' && e.msg) sent.push(e.msg);
  };
  const client = () => {
    const c = new ImapFlow({
      ...server.imapOptions(),
      qresync,
      disableAutoIdle: true,
      logger: { debug: record, info: () => {}, warn: () => {}, error: () => {} },
    });
    // As a server without LIST-STATUS (Gmail): the LIST gives no counts.
    if (opts.listStatus === false) {
      const list = c.list.bind(c);
      c.list = (options) => list({ ...options, statusQuery: undefined });
    }
    return c;
  };
  const summary = await syncAccount(db, login, { ...opts, client });
  return { summary, sent };
}

const count = (db: Db, sql: string, ...args: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .get(...args) as number;
const idOf = (db: Db, messageId: string) =>
  count(db, 'SELECT id FROM messages WHERE message_id = ?', messageId);
const folderOf = (db: Db, messageId: string) =>
  db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = ?')
    .pluck()
    .get(messageId);
/** Every location with its message's Message-ID, folder and read state: what a sync decides. */
const stored = (db: Db) =>
  db
    .prepare(
      `SELECT f.name, l.uid, m.message_id, l.flags_json, m.unread, mf.name AS home
       FROM imap_locations l JOIN folders f ON f.id = l.folder_id JOIN messages m ON m.id = l.message
       JOIN folders mf ON mf.id = m.folder_id ORDER BY f.name, l.uid`,
    )
    .all();
const inbox = (db: Db) =>
  count(
    db,
    "SELECT count(*) FROM imap_locations l JOIN folders f ON f.id = l.folder_id WHERE f.name = 'Inbox'",
  );
const examinedWithQresync = (sent: string[]) => sent.some((c) => /EXAMINE .*\(QRESYNC \(/.test(c));
const searchedAll = (sent: string[]) => sent.some((c) => /UID SEARCH ALL/.test(c));

async function otherClient(change: (other: ImapFlow) => Promise<void>) {
  const other = await server.client();
  try {
    await other.mailboxOpen('INBOX');
    await change(other);
  } finally {
    await other.logout();
  }
}
const uidOf = async (other: ImapFlow, messageId: string) =>
  ((await other.search({ header: { 'message-id': messageId } }, { uid: true })) || [])[0] as number;

beforeAll(async () => {
  server = await startDovecot();
  server.seedMaildir(
    'test@example.com',
    'INBOX',
    Array.from({ length: seeded }, (_, i) => message(i)),
  );
  withQresync = newDatabase();
  without = newDatabase();
  login = loginFor(server, 1, 'test');
}, 60_000);

afterAll(async () => {
  withQresync?.close();
  without?.close();
  await server?.stop();
});

describe('incremental IMAP sync with QRESYNC against Dovecot', () => {
  test('a first sync compares the whole folder and stores its UIDVALIDITY, HIGHESTMODSEQ and UIDNEXT', async () => {
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ added: seeded, messages: seeded });
    expect(examinedWithQresync(sent)).toBe(false);
    expect(searchedAll(sent)).toBe(true);
    const state = withQresync
      .prepare("SELECT uid_validity, highest_modseq, uid_next FROM imap_folders WHERE path = 'INBOX'")
      .get() as Record<string, number | null>;
    expect(state).toEqual({
      uid_validity: expect.any(Number),
      highest_modseq: expect.any(Number),
      uid_next: seeded + 1,
    });
    await sync(without, false);
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('expunges by another client are removed through VANISHED, without the UID list', async () => {
    await otherClient(async (other) => {
      await other.messageDelete(String(await uidOf(other, '<q5@example.com>')), { uid: true });
      await other.messageDelete(String(await uidOf(other, '<q6@example.com>')), { uid: true });
    });
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ removed: 2, added: 0, messages: seeded - 2 });
    expect(examinedWithQresync(sent)).toBe(true);
    expect(searchedAll(sent)).toBe(false);
    expect(sent.some((c) => /CHANGEDSINCE/.test(c))).toBe(false);
    expect(idOf(withQresync, '<q5@example.com>')).toBeUndefined();
    expect(inbox(withQresync)).toBe(seeded - 2);

    const old = await sync(without, false);
    expect(old.summary).toMatchObject({ removed: 2, added: 0 });
    expect(examinedWithQresync(old.sent)).toBe(false);
    expect(searchedAll(old.sent)).toBe(true);
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('flag changes by another client arrive, for the stored messages only', async () => {
    await otherClient(async (other) => {
      await other.messageFlagsAdd(String(await uidOf(other, '<q1@example.com>')), ['\\Seen'], { uid: true });
      await other.messageFlagsAdd(String(await uidOf(other, '<q2@example.com>')), ['\\Flagged', 'Work'], {
        uid: true,
      });
    });
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ flagsChanged: 2, added: 0, removed: 0 });
    expect(examinedWithQresync(sent)).toBe(true);
    expect(count(withQresync, "SELECT unread FROM messages WHERE message_id = '<q1@example.com>'")).toBe(0);
    const flags = withQresync
      .prepare(
        "SELECT l.flags_json FROM imap_locations l JOIN messages m ON m.id = l.message WHERE m.message_id = '<q2@example.com>'",
      )
      .pluck()
      .get() as string;
    expect(JSON.parse(flags)).toEqual(['Work', '\\Flagged']);
    expect((await sync(without, false)).summary).toMatchObject({ flagsChanged: 2 });
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('new mail arrives: the uids from the stored UIDNEXT on, and nothing older is fetched again', async () => {
    await server.append('INBOX', [message(1000), message(1001)]);
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ added: 2, linked: 0, messages: seeded });
    expect(sent.filter((c) => /UID SEARCH UID \d+:\*/.test(c))).toHaveLength(1);
    expect(searchedAll(sent)).toBe(false);
    expect(folderOf(withQresync, '<q1001@example.com>')).toBe('Inbox');
    expect((await sync(without, false)).summary).toMatchObject({ added: 2 });
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('new mail expunged again before the sync is neither fetched nor counted', async () => {
    const before = stored(withQresync);
    await otherClient(async (other) => {
      const appended = await other.append('INBOX', message(1002));
      if (!appended) throw new Error('the server refused the APPEND');
      await other.noop(); // so this session knows the new uid
      await other.messageDelete(String(appended.uid), { uid: true });
    });
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ added: 0, linked: 0, removed: 0, flagsChanged: 0, messages: seeded });
    expect(sent.filter((c) => /UID SEARCH UID \d+:\*/.test(c))).toHaveLength(1);
    expect(sent.filter((c) => /UID FETCH/.test(c))).toEqual([]);
    expect(stored(withQresync)).toEqual(before);
    await sync(without, false);
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('a move by another client keeps the message id: linked, not downloaded', async () => {
    const before = idOf(withQresync, '<q10@example.com>');
    await otherClient(async (other) => {
      await other.messageMove(String(await uidOf(other, '<q10@example.com>')), 'Archive', { uid: true });
    });
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ added: 0, linked: 1, removed: 0 });
    expect(examinedWithQresync(sent)).toBe(true);
    expect(idOf(withQresync, '<q10@example.com>')).toBe(before);
    expect(folderOf(withQresync, '<q10@example.com>')).toBe('Archive');
    expect((await sync(without, false)).summary).toMatchObject({ added: 0, linked: 1 });
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('a sync with nothing new opens no folder: the LIST says each is as the last sync left it', async () => {
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ added: 0, linked: 0, removed: 0, flagsChanged: 0 });
    // Dovecot offers LIST-STATUS (RFC 5819): one LIST with the counts of every folder.
    expect(sent.filter((c) => /^\S+ LIST .*RETURN .*STATUS \(/.test(c))).toHaveLength(1);
    expect(sent.filter((c) => / (EXAMINE|SELECT|STATUS) "?\w/.test(c))).toEqual([]);
    expect(sent.filter((c) => / (UID )?(SEARCH|FETCH) /.test(c))).toEqual([]);
  }, 60_000);

  test('without LIST-STATUS or QRESYNC, a folder whose EXAMINE shows nothing new is asked nothing more', async () => {
    const { summary, sent } = await sync(without, false, { listStatus: false });
    expect(summary).toMatchObject({ added: 0, linked: 0, removed: 0, flagsChanged: 0 });
    expect(sent.filter((c) => /STATUS \(/.test(c))).toEqual([]);
    expect(sent.filter((c) => / EXAMINE "?INBOX"?$/.test(c))).toHaveLength(1);
    expect(sent.filter((c) => / (UID )?(SEARCH|FETCH) /.test(c))).toEqual([]);
  }, 60_000);

  test('a change in one folder opens that folder only', async () => {
    await otherClient(async (other) => {
      await other.messageFlagsAdd(String(await uidOf(other, '<q3@example.com>')), ['\\Seen'], { uid: true });
    });
    const { summary, sent } = await sync(withQresync, true);
    expect(summary).toMatchObject({ flagsChanged: 1, added: 0, removed: 0 });
    expect(sent.filter((c) => / (EXAMINE|SELECT) /.test(c))).toEqual([
      expect.stringMatching(/EXAMINE "?INBOX"? \(QRESYNC/),
    ]);
    expect((await sync(without, false)).summary).toMatchObject({ flagsChanged: 1 });
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('a sync stopped after its first batch is followed by one that gets the rest, still with QRESYNC', async () => {
    const had = inbox(withQresync);
    server.seedMaildir(
      'test@example.com',
      'INBOX',
      Array.from({ length: 200 }, (_, i) => message(2000 + i)),
    );
    const stop = new AbortController();
    const stopped = await sync(withQresync, true, { signal: stop.signal, onBatch: () => stop.abort() }).catch(
      (e: unknown) => e,
    );
    expect(stopped).toMatchObject({ code: 'cancelled' });
    const partial = inbox(withQresync);
    expect(partial).toBeGreaterThan(had);
    expect(partial).toBeLessThan(had + 200);
    const { summary, sent } = await sync(withQresync, true);
    expect(examinedWithQresync(sent)).toBe(true);
    expect(summary.added).toBe(had + 200 - partial);
    expect(inbox(withQresync)).toBe(had + 200);
    await sync(without, false);
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('an interrupted first sync is followed by a whole comparison that gets everything', async () => {
    const fresh = newDatabase();
    try {
      const stop = new AbortController();
      await sync(fresh, true, { signal: stop.signal, onBatch: () => stop.abort() }).catch(() => {});
      expect(inbox(fresh)).toBeLessThan(inbox(withQresync));
      const { sent } = await sync(fresh, true);
      // The INBOX was never synced to the end: no UIDNEXT of its own to start from.
      expect(sent.some((c) => /EXAMINE "?INBOX"? \(QRESYNC/.test(c))).toBe(false);
      expect(searchedAll(sent)).toBe(true);
      expect(stored(fresh)).toEqual(stored(withQresync));
    } finally {
      fresh.close();
    }
  }, 60_000);

  test('a UIDVALIDITY reset is a whole comparison that keeps message ids; the next sync uses QRESYNC again', async () => {
    const before = idOf(withQresync, '<q42@example.com>');
    const had = inbox(withQresync);
    await server.resetUidValidity('INBOX');
    const { summary, sent } = await sync(withQresync, true);
    // Asked with the old UIDVALIDITY, the server ignores the QRESYNC parameters (RFC 7162 §3.2.5).
    expect(summary).toMatchObject({ added: 0, removed: 0 });
    expect(searchedAll(sent)).toBe(true);
    expect(idOf(withQresync, '<q42@example.com>')).toBe(before);
    expect(inbox(withQresync)).toBe(had);
    expect(searchedAll((await sync(withQresync, true)).sent)).toBe(false);
    await sync(without, false);
    expect(stored(without)).toEqual(stored(withQresync));
  }, 60_000);

  test('the last uid, which n:* matches even below n, is not fetched again when it is not stored', async () => {
    const fresh = newDatabase();
    try {
      let last = '';
      await otherClient(async (other) => {
        const newest = await other.fetchOne('*', { envelope: true });
        if (!newest) throw new Error('INBOX is empty');
        last = newest.envelope?.messageId ?? '';
      });
      expect(last).not.toBe('');
      // The newest message cannot be read, so it has no location (its failure is recorded instead).
      const unreadable = (raw: Buffer, options?: ParseOptions) =>
        raw.includes(last) ? Promise.reject(new Error('unreadable')) : parseMessage(raw, options);
      await sync(fresh, true, { parse: unreadable });
      expect(idOf(fresh, last)).toBeUndefined();
      await otherClient(async (other) => {
        const appended = await other.append('INBOX', message(3000));
        if (!appended) throw new Error('the server refused the APPEND');
        await other.noop();
        await other.messageDelete(String(appended.uid), { uid: true });
      });
      let parsed = 0;
      const { sent } = await sync(fresh, true, {
        parse: (raw, options) => {
          parsed += 1;
          return parseMessage(raw, options);
        },
      });
      expect(sent.filter((c) => /UID SEARCH UID \d+:\*/.test(c))).toHaveLength(1);
      expect(sent.filter((c) => /UID FETCH/.test(c))).toEqual([]);
      expect(parsed).toBe(0);
    } finally {
      fresh.close();
    }
  }, 60_000);

  test('a connection with QRESYNC on still hears an expunge while it IDLEs', async () => {
    const client = imapClient(login);
    client.on('error', () => {});
    try {
      await client.connect();
      expect(client.enabled.has('QRESYNC')).toBe(true);
      await client.mailboxOpen('INBOX', { readOnly: true });
      const heard = new Promise((resolve) => client.once('expunge', resolve));
      void client.idle().catch(() => {});
      await otherClient(async (other) => {
        await other.messageDelete(String(await uidOf(other, '<q7@example.com>')), { uid: true });
      });
      expect(await heard).toMatchObject({ path: 'INBOX', vanished: true, uid: expect.any(Number) });
    } finally {
      client.close();
    }
  });
});
