// Warnings stored at IMAP sync (DESIGN §11, "Warnings"), against a real Dovecot on loopback: a sync fetches
// Authentication-Results and Reply-To with the other header fields, and the warnings made from them are stored
// with each new message, the HTML checks on the text parts the sync downloads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareQueries } from '../electron/mail/store/queries.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { tempDir } from './support/temp.ts';

const headers = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/auth-results', `${name}.txt`), 'utf8').trimEnd();
const withBody = (head: string, id: string, body: string) =>
  `${head}\r\nMessage-ID: <${id}@example.com>\r\nDate: Mon, 30 Nov 2026 09:00:00 +0000\r\nTo: bob@example.com\r\n${body}`;

const failing = withBody(
  headers('gmail-fail'),
  'limited',
  'Content-Type: text/plain\r\n\r\nVerify your account.\r\n',
);
const passing = withBody(
  headers('postfix-opendmarc-pass'),
  'office',
  'Content-Type: text/plain\r\n\r\nSee you on the 3rd floor.\r\n',
);
const linked = withBody(
  'From: Shop <news@shop.example.org>\r\nSubject: Your order',
  'order',
  'MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nTrack it.\r\n--b\r\nContent-Type: text/html\r\n\r\n<p><a href="https://track.example.net/x">https://shop.example.org/orders/1</a></p>\r\n--b--\r\n',
);

let server: Dovecot;
let db: Db;

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [failing, passing, linked], []);
  db = openDatabase(join(tempDir(), 'skimmer.db'));
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  await syncAccount(db, loginFor(server, accountId, 'test'));
}, 60_000);

afterAll(async () => {
  db?.close();
  await server?.stop();
});

const warningsOf = (messageId: string) => {
  const id = db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
  return prepareQueries(db).message(id)?.warnings;
};

test('a synced message the receiving server failed, with a Reply-To elsewhere, is stored with both warnings', () => {
  expect(warningsOf('<limited@example.com>')).toEqual([
    {
      kind: 'authentication',
      text: 'Your mail server says this message failed SPF (paypal.com), DKIM (paypal.com) and DMARC (paypal.com): it may not be from who it says.',
    },
    {
      kind: 'reply-to',
      text: "Replies go to support@paypa1-help.example, on another domain than the sender's (paypal.com).",
    },
  ]);
});

test('a synced message that passed is stored with no warning', () => {
  expect(warningsOf('<office@example.com>')).toEqual([]);
});

test('a synced HTML message whose link text shows another host is stored with the link warning', () => {
  expect(warningsOf('<order@example.com>')).toEqual([
    { kind: 'link-mismatch', text: 'A link shows shop.example.org but opens track.example.net.' },
  ]);
});

test('every synced message has its row, so none waits for the backfill', () => {
  expect(
    db
      .prepare(
        'SELECT count(*) FROM messages m LEFT JOIN message_warnings w ON w.message_id = m.id WHERE w.message_id IS NULL',
      )
      .pluck()
      .get(),
  ).toBe(0);
});
