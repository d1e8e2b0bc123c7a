import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import type { ParsedMessage } from '../mail/import/parse.ts';
import { prepareStore } from '../mail/store/store.ts';
import { openDatabase } from './open.ts';
import { nextId } from './retired-ids.ts';

const message = (n: number, subject = `Subject ${n}`): ParsedMessage => ({
  messageId: `<m${n}@example.com>`,
  inReplyTo: null,
  references: [],
  subject,
  from: { name: 'Ann', address: 'ann@example.com' },
  replyTo: [],
  to: [],
  cc: [],
  date: n * 1000,
  text: `Body ${n}`,
  html: null,
  attachments: [],
  contentHash: `hash-${n}`,
  size: 100 + n,
  trust: { authenticationResults: [], replyTo: [] },
  contentWarnings: [],
});

function mailbox() {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  const store = prepareStore(db);
  const folder = { name: 'Inbox', source: 'test:inbox' };
  const add = (n: number) =>
    db.transaction(() => {
      store.store(folder, 'test', message(n));
      store.indexStored();
      return db.prepare('SELECT id, thread_id FROM messages WHERE message_id = ?').get(`<m${n}@example.com>`);
    })() as { id: number; thread_id: number };
  return { db, add };
}

test('a deleted newest message leaves its id unused: the next message gets a new one', () => {
  const { db, add } = mailbox();
  add(1);
  const newest = add(2);
  db.prepare('DELETE FROM messages WHERE id = ?').run(newest.id);
  expect(add(3).id).toBe(newest.id + 1);
  // The search index follows the new id, and only it (its rowid, the search key, holds the id in its low bits).
  expect(
    db.prepare("SELECT rowid & 2147483647 FROM messages_fts WHERE messages_fts MATCH 'body'").pluck().all(),
  ).toEqual([newest.id - 1, newest.id + 1]);
});

test('a deleted newest thread leaves its id unused: the next thread gets a new one', () => {
  const { db, add } = mailbox();
  const first = add(1);
  const second = add(2);
  db.prepare('DELETE FROM messages WHERE id = ?').run(second.id);
  db.prepare('DELETE FROM threads WHERE id = ?').run(second.thread_id);
  const third = add(3);
  expect(third.thread_id).toBeGreaterThan(second.thread_id);
  expect(third.thread_id).not.toBe(first.thread_id);
});

// The same mechanism for the rows the undo log and the queue of server changes name by id; the inserts are
// those of drafts.ts/undo.ts, store.ts/imap-store.ts/undo.ts and labels.ts.
test.each([
  [
    'draft',
    `INSERT INTO drafts (id, to_json, cc_json, subject, body, in_reply_to, created_at, updated_at)
     VALUES (${nextId('drafts')}, '[]', '[]', ?, '', NULL, 0, 0)`,
    'DELETE FROM drafts WHERE id = ?',
  ],
  [
    'folder',
    `INSERT INTO folders (id, account_id, name, source) VALUES (${nextId('folders')}, 1, ?, 'test:' || random())`,
    'DELETE FROM folders WHERE id = ?',
  ],
  [
    'label',
    `INSERT INTO labels (id, name) VALUES (${nextId('labels')}, ?)`,
    'DELETE FROM labels WHERE id = ?',
  ],
])('a deleted newest %s leaves its id unused', (_kind, insert, remove) => {
  const { db } = mailbox();
  const add = db.prepare(insert);
  const first = Number(add.run('first').lastInsertRowid);
  db.prepare(remove).run(first);
  expect(Number(add.run('second').lastInsertRowid)).toBe(first + 1);
});
