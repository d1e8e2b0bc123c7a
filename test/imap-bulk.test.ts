// Several conversations at once on a real Dovecot (issue 16, DESIGN §11 "Several at once"): a bulk change
// queues one write-back op per message, exactly as the single actions do, and the next sync carries it to the
// server; Spam moves to the account's \Junk mailbox and Not spam back to INBOX, both seen by another IMAP
// client; on a server without \Junk, Spam makes a Spam mailbox once and keeps using it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareBulk } from '../electron/mail/store/bulk.ts';
import { prepareQueries } from '../electron/mail/store/queries.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { prepareWriteBack } from '../electron/mail/store/write-back.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

type Account = { server: Dovecot; db: Db; login: AccountLogin };
const names = ['one', 'two', 'three'];

async function account(junk: boolean): Promise<Account> {
  const server = await startDovecot({ junk });
  await server.append(
    'INBOX',
    names.map((n) => eml({ id: `<${n}@example.com>`, subject: `Message ${n}` })),
  );
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  const id = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  const login = loginFor(server, id, 'test');
  await syncAccount(db, login);
  return { server, db, login };
}

const idOf = (a: Account, name: string) =>
  a.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${name}@example.com>`) as number;
const threadOf = (a: Account, name: string) =>
  a.db
    .prepare('SELECT thread_id FROM messages WHERE message_id = ?')
    .pluck()
    .get(`<${name}@example.com>`) as number;
const bulkOf = (a: Account) => prepareBulk(a.db, prepareMailActions(a.db), prepareQueries(a.db).folders);
const pending = (a: Account) =>
  prepareWriteBack(a.db)
    .pending(a.login.id)
    .map((o) => ({ kind: o.kind, message: o.message }));

/** The mailboxes another IMAP client finds the message in. */
async function mailboxesOf(a: Account, name: string): Promise<string[]> {
  const c = await a.server.client();
  try {
    const found: string[] = [];
    for (const box of await c.list()) {
      await c.mailboxOpen(box.path, { readOnly: true });
      const uids =
        (await c.search({ header: { 'message-id': `<${name}@example.com>` } }, { uid: true })) || [];
      if (uids.length > 0) found.push(box.path);
    }
    return found.sort();
  } finally {
    await c.logout();
  }
}

let junk: Account;
let plain: Account;

beforeAll(async () => {
  [junk, plain] = await Promise.all([account(true), account(false)]);
}, 60_000);

afterAll(async () => {
  junk?.db.close();
  plain?.db.close();
  await Promise.all([junk?.server.stop(), plain?.server.stop()]);
});

describe('bulk changes on Dovecot', () => {
  test('a bulk archive queues one move per message, as mail:archive does, and Undo queues the moves back', async () => {
    const before = pending(junk);
    const threads = names.map((n) => threadOf(junk, n));
    expect(bulkOf(junk).apply({ scope: { view: 'inbox' }, threads }, { kind: 'archive' })).toEqual({
      threads: 3,
      changed: 3,
    });
    expect(pending(junk)).toEqual([
      ...before,
      ...names.map((n) => ({ kind: 'move', message: idOf(junk, n) })),
    ]);
    prepareMailActions(junk.db).undo(1);
    expect(pending(junk).length).toBe(before.length + 6);
    await syncAccount(junk.db, junk.login);
    expect(pending(junk)).toEqual([]);
    expect(await mailboxesOf(junk, 'one')).toEqual(['INBOX']);
  });

  test('Spam moves the conversations to Junk on the server, and Not spam back to INBOX', async () => {
    const bulk = bulkOf(junk);
    const threads = [threadOf(junk, 'one'), threadOf(junk, 'two')];
    expect(bulk.apply({ scope: { view: 'inbox' }, threads }, { kind: 'spam' }).changed).toBe(2);
    expect(pending(junk)).toEqual([
      { kind: 'move', message: idOf(junk, 'one') },
      { kind: 'move', message: idOf(junk, 'two') },
    ]);
    await syncAccount(junk.db, junk.login);
    expect(await mailboxesOf(junk, 'one')).toEqual(['Junk']);
    expect(await mailboxesOf(junk, 'two')).toEqual(['Junk']);
    expect(await mailboxesOf(junk, 'three')).toEqual(['INBOX']);

    const spamFolder = prepareQueries(junk.db)
      .folders()
      .find((f) => f.place === 'spam');
    expect(spamFolder?.name).toBe('Junk');
    expect(
      bulk.apply(
        { scope: { folderId: spamFolder?.id ?? 0 }, threads: threads.slice(0, 1) },
        { kind: 'notSpam' },
      ).changed,
    ).toBe(1);
    await syncAccount(junk.db, junk.login);
    expect(await mailboxesOf(junk, 'one')).toEqual(['INBOX']);
    expect(await mailboxesOf(junk, 'two')).toEqual(['Junk']);
  });

  test('a label on a selection is a keyword on each message on the server', async () => {
    const threads = names.map((n) => threadOf(junk, n));
    bulkOf(junk).apply({ scope: { view: 'all' }, threads }, { kind: 'label', add: ['Clients'], remove: [] });
    expect(pending(junk).map((o) => o.kind)).toEqual(['keywords', 'keywords', 'keywords']);
    await syncAccount(junk.db, junk.login);
    const c = await junk.server.client();
    try {
      await c.mailboxOpen('INBOX', { readOnly: true });
      const [m] = await c.fetchAll('1:*', { flags: true });
      expect([...(m?.flags ?? [])]).toContain('Clients');
    } finally {
      await c.logout();
    }
  });

  test('without a \\Junk mailbox, Spam makes a Spam mailbox on the server once and uses it again', async () => {
    const bulk = bulkOf(plain);
    bulk.apply({ scope: { view: 'inbox' }, threads: [threadOf(plain, 'one')] }, { kind: 'spam' });
    await syncAccount(plain.db, plain.login);
    expect(await mailboxesOf(plain, 'one')).toEqual(['Spam']);
    bulk.apply({ scope: { view: 'inbox' }, threads: [threadOf(plain, 'two')] }, { kind: 'spam' });
    await syncAccount(plain.db, plain.login);
    expect(await mailboxesOf(plain, 'two')).toEqual(['Spam']);
    const spam = prepareQueries(plain.db)
      .folders()
      .filter((f) => f.place === 'spam');
    expect(spam.map((f) => f.name)).toEqual(['Spam']);
  });
});
