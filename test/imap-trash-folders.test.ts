// Labels renamed and deleted, Trash restored and emptied, folders made, renamed and deleted (issue 29 §4, §7),
// against a real Dovecot: each change is made here at once, replayed by the next sync, and read back from the
// server with a second IMAP client (imapflow directly).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareFoldersAdmin } from '../electron/mail/store/folders-admin.ts';
import { prepareLabels } from '../electron/mail/store/labels.ts';
import { prepareTrash } from '../electron/mail/store/trash.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { prepareWriteBack } from '../electron/mail/store/write-back.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let db: Db;
let login: AccountLogin;
const names = ['a', 'b', 'c', 'd', 'e'];
const ids: Record<string, number> = {};
const id = (s: string) => ids[s] as number;

/** Where the server keeps a message now: mailbox and keywords/flags, by Message-ID. */
async function onServer(messageId: string): Promise<{ mailbox: string; flags: string[] }[]> {
  const c = await server.client();
  const found: { mailbox: string; flags: string[] }[] = [];
  try {
    for (const box of await c.list()) {
      await c.mailboxOpen(box.path, { readOnly: true });
      const uids = (await c.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
      if (uids.length === 0) continue;
      const [m] = await c.fetchAll(uids.join(','), { uid: true, flags: true }, { uid: true });
      found.push({ mailbox: box.path, flags: [...(m?.flags ?? [])].filter((f) => f !== '\\Recent').sort() });
    }
  } finally {
    await c.logout();
  }
  return found;
}

async function mailboxes(): Promise<string[]> {
  const c = await server.client();
  try {
    return (await c.list()).map((b) => b.path).sort();
  } finally {
    await c.logout();
  }
}

const sync = async () => {
  await syncAccount(db, login);
  expect(prepareWriteBack(db).pending(login.id)).toEqual([]);
  expect(prepareWriteBack(db).failed()).toEqual([]);
};

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    names.map((s) => eml({ id: `<${s}@example.com>`, subject: `About ${s}`, body: `Text ${s}.` })),
  );
  db = openDatabase(join(tempDir(), 'skimmer.db'));
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  login = loginFor(server, accountId, 'test');
  await syncAccount(db, login);
  for (const s of names)
    ids[s] = db
      .prepare('SELECT id FROM messages WHERE message_id = ?')
      .pluck()
      .get(`<${s}@example.com>`) as number;
});

afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe('labels on the server', () => {
  test('a rename is the new keyword on each message, and its Undo the old one again', async () => {
    const actions = prepareMailActions(db);
    actions.label([id('a'), id('b')], ['Work'], []);
    await sync();
    expect(await onServer('<a@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['Work'] }]);

    actions.renameLabel(prepareLabels(db).find('Work') as number, 'Projects');
    await sync();
    expect(await onServer('<a@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['Projects'] }]);
    expect(await onServer('<b@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['Projects'] }]);

    actions.undoOne(actions.undoable(1)[0]?.id ?? 0);
    await sync();
    expect(await onServer('<b@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['Work'] }]);
  });

  test('a delete takes the keyword off every message', async () => {
    const actions = prepareMailActions(db);
    actions.deleteLabel(prepareLabels(db).find('Work') as number);
    await sync();
    expect(await onServer('<a@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    expect(await onServer('<b@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
  });
});

describe('folders on the server', () => {
  test('a folder made, renamed and deleted here is made, renamed and deleted there', async () => {
    const folders = prepareFoldersAdmin(db);
    const made = folders.create(login.id, 'Receipts').id;
    await sync();
    expect(await mailboxes()).toContain('Receipts');

    prepareMailActions(db).moveToFolderId([id('a')], made);
    folders.rename(made, 'Paid');
    await sync();
    const boxes = await mailboxes();
    expect(boxes).toContain('Paid');
    expect(boxes).not.toContain('Receipts');
    expect(await onServer('<a@example.com>')).toEqual([{ mailbox: 'Paid', flags: [] }]);
    // The next sync found it by its new path: still one folder here, with its message.
    expect(db.prepare("SELECT count(*) FROM folders WHERE name IN ('Paid', 'Receipts')").pluck().get()).toBe(
      1,
    );

    expect(() => folders.remove(made)).toThrow(/still has 1 message\. Move them/);
    prepareMailActions(db).moveToSpecial([id('a')], 'inbox');
    // Until the move out has reached the server, the folder's row holds where the message is there.
    expect(() => folders.remove(made)).toThrow(/has not reached the server yet/);
    await sync();
    folders.remove(made);
    await sync();
    expect(await mailboxes()).not.toContain('Paid');
    expect(await onServer('<a@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
  });

  test('a folder another client filled since is not deleted with its mail', async () => {
    const folders = prepareFoldersAdmin(db);
    const made = folders.create(login.id, 'Keep').id;
    await sync();
    folders.remove(made);
    await server.append('Keep', [
      eml({ id: '<late@example.com>', subject: 'Late', body: 'Put here elsewhere.' }),
    ]);
    await syncAccount(db, login);
    expect(
      prepareWriteBack(db)
        .failed()
        .map((o) => o.kind),
    ).toEqual(['folder_delete']);
    expect(await onServer('<late@example.com>')).toEqual([{ mailbox: 'Keep', flags: [] }]);
    db.prepare("DELETE FROM mail_ops WHERE kind = 'folder_delete'").run();
  });
});

describe('Trash on the server', () => {
  test('Restore puts a message back in the folder it came from', async () => {
    const actions = prepareMailActions(db);
    const lists = prepareFoldersAdmin(db).create(login.id, 'Lists').id;
    actions.moveToFolderId([id('c')], lists);
    await sync();
    actions.moveToSpecial([id('c')], 'trash');
    await sync();
    expect(await onServer('<c@example.com>')).toEqual([{ mailbox: 'Trash', flags: [] }]);
    expect(actions.restore([id('c')])).toEqual({ changed: 1 });
    await sync();
    expect(await onServer('<c@example.com>')).toEqual([{ mailbox: 'Lists', flags: [] }]);
  });

  test('Delete forever and Empty Trash expunge from the server; mail outside Trash is refused', async () => {
    const actions = prepareMailActions(db);
    const trash = prepareTrash(db);
    expect(() => trash.deleteForever([id('b')])).toThrow(
      'Only messages in the Trash can be deleted forever.',
    );
    actions.moveToSpecial([id('d'), id('e')], 'trash');
    await sync();
    trash.deleteForever([id('d')]);
    await sync();
    expect(await onServer('<d@example.com>')).toEqual([]);
    expect(await onServer('<e@example.com>')).toEqual([{ mailbox: 'Trash', flags: [] }]);
    const inTrash = db
      .prepare("SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE f.name = 'Trash'")
      .pluck()
      .all() as number[];
    expect(trash.deleteForever(inTrash)).toEqual({ changed: 1, threads: 1 });
    await sync();
    expect(await onServer('<e@example.com>')).toEqual([]);
    expect(await onServer('<b@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    // Gone here too, and the next sync does not bring it back.
    expect(
      db
        .prepare("SELECT count(*) FROM messages WHERE message_id IN ('<d@example.com>', '<e@example.com>')")
        .pluck()
        .get(),
    ).toBe(0);
  });
});
