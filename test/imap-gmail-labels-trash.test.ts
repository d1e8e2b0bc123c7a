// A label renamed and deleted, and mail deleted forever, on a Gmail-like server (issue 29 §4, §7;
// test/support/gmail-imap.ts, written from Google's documentation). A Skimmer label is a Gmail label, kept per
// message as X-GM-LABELS: a rename adds the new one and takes the old one off each message, once per Gmail
// message; Delete forever is an expunge from [Gmail]/Trash, which Gmail makes for good.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { type AccountLogin, prepareAccounts } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareLabels } from '../electron/mail/store/labels.ts';
import { prepareTrash } from '../electron/mail/store/trash.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type GmailImap, type GmailMessage, startGmailImap } from './support/gmail-imap.ts';
import { eml, tempDir } from './support/temp.ts';

let gmail: GmailImap;
let db: Db;
let login: AccountLogin;
const names = ['one', 'two', 'gone'];

const idOf = (s: string) =>
  db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${s}@example.com>`) as number;
const labelsOn = (s: string) => {
  const m = gmail.find(`<${s}@example.com>`);
  return m ? [...m.labels].sort() : null;
};
const commandsFrom = () => {
  const start = gmail.log.length;
  return () => gmail.log.slice(start);
};

beforeAll(async () => {
  gmail = await startGmailImap();
  for (const s of names)
    gmail.deliver(eml({ id: `<${s}@example.com>`, subject: `To ${s}`, body: `About ${s}.` }), ['\\Inbox']);
  const dir = tempDir();
  db = openDatabase(join(dir, 'skimmer.db'));
  const accounts = prepareAccounts(db, createKeyVault(db, fileSealer(dir)));
  const view = await accounts.add({
    name: 'gmail',
    user: gmail.user,
    password: gmail.pass,
    imap: { host: gmail.host, port: gmail.port, tls: 'none' },
    smtp: { host: gmail.host, port: 1, tls: 'none' },
  });
  login = await accounts.login(view.id);
  await syncAccount(db, login);
});

afterAll(async () => {
  db?.close();
  await gmail?.close();
});

test('a rename is the new X-GM-LABELS on and the old off, once per message; its Undo the reverse', async () => {
  const actions = prepareMailActions(db);
  actions.label([idOf('one'), idOf('two')], ['Work'], []);
  await syncAccount(db, login);
  expect(labelsOn('one')).toEqual(['Work', '\\Inbox']);

  actions.renameLabel(prepareLabels(db).find('Work') as number, 'Projects');
  const commands = commandsFrom();
  expect((await syncAccount(db, login)).pushed).toBe(2);
  const stores = commands().filter((c) => c.startsWith('UID STORE'));
  expect(stores.filter((c) => /\+X-GM-LABELS \(Projects\)$/.test(c))).toHaveLength(2);
  expect(stores.filter((c) => /-X-GM-LABELS \(Work\)$/.test(c))).toHaveLength(2);
  expect(commands().join('\n')).not.toMatch(/FLAGS[^\n]*(Projects|Work)/);
  expect(labelsOn('one')).toEqual(['Projects', '\\Inbox']);
  expect(labelsOn('two')).toEqual(['Projects', '\\Inbox']);

  actions.undoOne(actions.undoable(1)[0]?.id ?? 0);
  await syncAccount(db, login);
  expect(labelsOn('two')).toEqual(['Work', '\\Inbox']);

  actions.deleteLabel(prepareLabels(db).find('Work') as number);
  await syncAccount(db, login);
  expect(labelsOn('one')).toEqual(['\\Inbox']);
  expect(labelsOn('two')).toEqual(['\\Inbox']);
});

test('Delete forever expunges the message from [Gmail]/Trash, and Gmail has it no more', async () => {
  prepareMailActions(db).moveToSpecial([idOf('gone')], 'trash');
  await syncAccount(db, login);
  expect(gmail.mailboxesOf(gmail.find('<gone@example.com>') as GmailMessage)).toEqual(['[Gmail]/Trash']);
  prepareTrash(db).deleteForever([idOf('gone')]);
  const commands = commandsFrom();
  expect((await syncAccount(db, login)).pushed).toBe(1);
  expect(commands()).toContainEqual(expect.stringMatching(/^UID EXPUNGE \d+$/));
  expect(gmail.find('<gone@example.com>')).toBeUndefined();
  expect(labelsOn('one')).toEqual(['\\Inbox']);
});
