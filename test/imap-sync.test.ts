// IMAP sync against a real Dovecot on loopback (issue 5): first sync of 5,000 messages newest first,
// incremental sync after another client's changes (new mail, flags, moves, expunges), a UIDVALIDITY reset,
// the server killed mid-sync and restarted, and a refused password. The assertions are on what is stored
// (and searchable) afterwards, compared with what the server holds, read by a second client.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { imapClient, MailFailure } from '../electron/mail/imap/imap-connect.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { parseMessage } from '../electron/mail/import/parse.ts';
import { prepareSearch } from '../electron/mail/store/search.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const total = 5000;
const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toUTCString();
const message = (i: number) =>
  eml({ id: `<m${i}@example.com>`, subject: `Message ${i}`, date: day(i), body: `Body of message ${i}.` });
const withAttachment = [
  'From: Alice <alice@example.com>',
  'To: bob@example.com',
  'Subject: Report with attachment',
  'Message-ID: <att@example.com>',
  'Date: Mon, 30 Nov 2026 09:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'See the attached report.',
  '--b1',
  'Content-Type: application/pdf; name="report.pdf"',
  'Content-Disposition: attachment; filename="report.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  ...Array.from(
    { length: 100 },
    () => 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0',
  ),
  '--b1--',
  '',
].join('\r\n');

let server: Dovecot;
let db: Db;
let login: AccountLogin;

const count = (sql: string, ...args: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .get(...args) as number;
const idOf = (messageId: string) => count('SELECT id FROM messages WHERE message_id = ?', messageId);
const folderOf = (messageId: string) =>
  db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = ?')
    .pluck()
    .get(messageId);
const unread = (messageId: string) => count('SELECT unread FROM messages WHERE message_id = ?', messageId);

beforeAll(async () => {
  server = await startDovecot();
  const raws = Array.from({ length: total - 1 }, (_, i) => message(i));
  server.seedMaildir('test@example.com', 'INBOX', raws);
  await server.append('INBOX', [withAttachment], ['\\Seen']);
  db = openDatabase(join(tempDir(), 'skimmer.db'));
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  login = loginFor(server, accountId, 'test');
}, 60_000);

afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe('IMAP sync against Dovecot', () => {
  test('first sync stores every message, newest first, searchable, with attachment names only', async () => {
    const batches: number[] = [];
    const summary = await syncAccount(db, login, {
      onBatch: () => batches.push(count('SELECT max(date) FROM messages')),
    });
    expect(summary).toMatchObject({ messages: total, added: total });
    expect(summary.folders).toBeGreaterThanOrEqual(5); // INBOX, Sent, Drafts, Archive, Trash
    expect(count('SELECT count(*) FROM messages')).toBe(total);
    // The first committed batch already held the newest message.
    expect(batches[0]).toBe(count('SELECT max(date) FROM messages'));
    expect(prepareSearch(db)('"Message 4321"', 5).map((h) => h.subject)).toEqual(['Message 4321']);
    const att = db
      .prepare(
        "SELECT attachments_json, body_text, unread FROM messages WHERE message_id = '<att@example.com>'",
      )
      .get() as { attachments_json: string; body_text: string; unread: number };
    expect(JSON.parse(att.attachments_json)).toEqual([
      { name: 'report.pdf', contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    expect(att.body_text.trim()).toBe('See the attached report.');
    expect(att.unread).toBe(0);
    expect(unread('<m1@example.com>')).toBe(1);
  }, 120_000);

  test('a second sync with no change asks for neither the UID list nor the flags, and changes nothing', async () => {
    const asked: string[] = [];
    const counting = (l: AccountLogin) => {
      const client = imapClient(l);
      const search = client.search.bind(client);
      const fetchAll = client.fetchAll.bind(client);
      client.search = (...args: Parameters<typeof search>) => {
        asked.push('search');
        return search(...args);
      };
      client.fetchAll = (...args: Parameters<typeof fetchAll>) => {
        asked.push('fetch');
        return fetchAll(...args);
      };
      return client;
    };
    const summary = await syncAccount(db, login, { client: counting });
    expect(summary).toMatchObject({ messages: total, added: 0, linked: 0, removed: 0, flagsChanged: 0 });
    // The same HIGHESTMODSEQ and message count: nothing to ask (the next test proves changes are still seen).
    expect(asked).toEqual([]);
  });

  test('follows another client: new mail, flags, a move and an expunge', async () => {
    const moved = idOf('<m10@example.com>');
    const other = await server.client();
    try {
      await other.mailboxOpen('INBOX');
      await other.append('INBOX', message(9001));
      const uidOf = async (mid: string) =>
        ((await other.search({ header: { 'message-id': mid } }, { uid: true })) || [])[0] as number;
      await other.messageFlagsAdd(String(await uidOf('<m1@example.com>')), ['\\Seen'], { uid: true });
      await other.messageFlagsRemove(String(await uidOf('<att@example.com>')), ['\\Seen'], { uid: true });
      await other.messageMove(String(await uidOf('<m10@example.com>')), 'Archive', { uid: true });
      await other.messageDelete(String(await uidOf('<m20@example.com>')), { uid: true });
    } finally {
      await other.logout();
    }
    const summary = await syncAccount(db, login);
    expect(summary).toMatchObject({ added: 1, linked: 1, removed: 1, flagsChanged: 2 });
    expect(count('SELECT count(*) FROM messages')).toBe(total);
    expect(unread('<m1@example.com>')).toBe(0);
    expect(unread('<att@example.com>')).toBe(1);
    // The moved message kept its id (conversations point at it) and is in Archive now.
    expect(idOf('<m10@example.com>')).toBe(moved);
    expect(folderOf('<m10@example.com>')).toBe('Archive');
    expect(idOf('<m20@example.com>')).toBeUndefined();
    expect(folderOf('<m9001@example.com>')).toBe('Inbox');
  }, 60_000);

  test('a folder deleted on the server goes, with the mail only it held; a copy filed elsewhere stays', async () => {
    const other = await server.client();
    try {
      await other.mailboxCreate('Old');
      await other.append('Old', message(9100));
      await other.mailboxOpen('INBOX');
      const uid = ((await other.search({ header: { 'message-id': '<m30@example.com>' } }, { uid: true })) ||
        [])[0] as number;
      await other.messageCopy(String(uid), 'Old', { uid: true });
    } finally {
      await other.logout();
    }
    await syncAccount(db, login);
    const old = () => count("SELECT count(*) FROM folders WHERE name = 'Old'");
    expect(old()).toBe(1);
    expect(folderOf('<m9100@example.com>')).toBe('Old');
    const kept = idOf('<m30@example.com>');

    const again = await server.client();
    try {
      await again.mailboxDelete('Old');
    } finally {
      await again.logout();
    }
    const summary = await syncAccount(db, login);
    expect(summary.removed).toBe(1);
    expect(old()).toBe(0);
    expect(idOf('<m9100@example.com>')).toBeUndefined();
    expect(idOf('<m30@example.com>')).toBe(kept);
    expect(folderOf('<m30@example.com>')).toBe('Inbox');
    expect(count('SELECT count(*) FROM imap_folders WHERE path = ?', 'Old')).toBe(0);
  }, 60_000);

  test('a UIDVALIDITY reset re-syncs the folder without duplicates and keeps message ids', async () => {
    const before = idOf('<m42@example.com>');
    await server.resetUidValidity('INBOX');
    const summary = await syncAccount(db, login);
    expect(summary.added).toBe(0);
    expect(count('SELECT count(*) FROM messages')).toBe(total);
    expect(idOf('<m42@example.com>')).toBe(before);
    expect(
      count(
        "SELECT count(*) FROM imap_locations l JOIN folders f ON f.id = l.folder_id WHERE f.name = 'Inbox'",
      ),
    ).toBe(total - 1);
  }, 60_000);

  test('the server killed mid-sync: a clear retryable failure, then the next sync completes', async () => {
    const more = Array.from({ length: 1000 }, (_, i) => message(10_000 + i));
    server.seedMaildir('test@example.com', 'INBOX', more);
    // The server dies while the first batch is parsed: that batch is stored, the next download fails.
    let killed = false;
    const failed = await syncAccount(db, login, {
      batchSize: 100,
      parse: async (raw, options) => {
        if (!killed) {
          killed = true;
          await server.kill();
        }
        return parseMessage(raw, options);
      },
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MailFailure);
    expect(failed).toMatchObject({ code: 'transport', retryable: true });
    const partial = count('SELECT count(*) FROM messages');
    expect(partial).toBeGreaterThan(total); // the committed batch is kept
    await server.start();
    const summary = await syncAccount(db, login);
    expect(summary.added).toBe(total + 1000 - partial);
    expect(count('SELECT count(*) FROM messages')).toBe(total + 1000);
  }, 60_000);

  test('a refused password is a clear failure and loses nothing', async () => {
    const failed = await syncAccount(db, { ...login, password: 'wrong' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'unauthorized', retryable: false });
    expect((failed as Error).message).not.toContain('wrong');
    expect(count('SELECT count(*) FROM messages')).toBe(total + 1000);
  });
});
