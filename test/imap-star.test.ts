// Stars against a real Dovecot (DESIGN §11, "Stars"): a star made in Skimmer is queued as \Flagged and
// replayed by the next sync, so another IMAP client sees it, and its Undo goes to the server too; a
// \Flagged another client sets on the server shows as a star after a sync, and its removal takes it off.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareSearch } from '../electron/mail/store/search.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { prepareWriteBack } from '../electron/mail/store/write-back.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let db: Db;
let login: AccountLogin;
const names = ['mine', 'theirs'];
const idOf = (name: string) =>
  db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${name}@example.com>`) as number;
const starred = (name: string) =>
  db.prepare('SELECT starred FROM messages WHERE id = ?').pluck().get(idOf(name)) as number;

/** The flags another IMAP client sees on a message of INBOX. */
async function flagsOnServer(name: string): Promise<string[]> {
  const c = await server.client();
  try {
    await c.mailboxOpen('INBOX', { readOnly: true });
    const uids = (await c.search({ header: { 'message-id': `<${name}@example.com>` } }, { uid: true })) || [];
    const [m] = await c.fetchAll(uids.join(','), { uid: true, flags: true }, { uid: true });
    return [...(m?.flags ?? [])].filter((f) => f !== '\\Recent').sort();
  } finally {
    await c.logout();
  }
}

/** Another client changes the flag on the server. */
async function flagOnServer(name: string, on: boolean): Promise<void> {
  const c = await server.client();
  try {
    await c.mailboxOpen('INBOX');
    const uids = (await c.search({ header: { 'message-id': `<${name}@example.com>` } }, { uid: true })) || [];
    if (on) await c.messageFlagsAdd(uids.join(','), ['\\Flagged'], { uid: true });
    else await c.messageFlagsRemove(uids.join(','), ['\\Flagged'], { uid: true });
  } finally {
    await c.logout();
  }
}

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    names.map((n) => eml({ id: `<${n}@example.com>`, subject: `The ${n}` })),
  );
  db = openDatabase(join(tempDir(), 'skimmer.db'));
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  login = loginFor(server, accountId, 'test');
  await syncAccount(db, login);
});

afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe('stars on Dovecot', () => {
  test('a star made here is queued, replayed as \\Flagged, and another client sees it', async () => {
    const actions = prepareMailActions(db);
    expect(actions.star([idOf('mine')], true)).toEqual({ changed: 1 });
    expect(starred('mine')).toBe(1);
    expect(
      prepareWriteBack(db)
        .pending(login.id)
        .map((o) => ({ kind: o.kind, message: o.message })),
    ).toEqual([{ kind: 'flagged', message: idOf('mine') }]);
    expect(await flagsOnServer('mine')).toEqual([]);

    expect((await syncAccount(db, login)).pushed).toBe(1);
    expect(prepareWriteBack(db).pending(login.id)).toEqual([]);
    expect(await flagsOnServer('mine')).toEqual(['\\Flagged']);
    // The sync that replayed it reads the flag back: still starred here.
    expect(starred('mine')).toBe(1);
  });

  test('undoing the star takes \\Flagged off the server too', async () => {
    const actions = prepareMailActions(db);
    expect(actions.undo(1).map((e) => e.description)).toEqual(['Starred 1 message']);
    expect(starred('mine')).toBe(0);
    expect((await syncAccount(db, login)).pushed).toBe(1);
    expect(await flagsOnServer('mine')).toEqual([]);
    expect(starred('mine')).toBe(0);
  });

  test('a \\Flagged set on the server shows as starred after a sync, and is:starred finds it', async () => {
    const search = prepareSearch(db);
    expect(starred('theirs')).toBe(0);
    await flagOnServer('theirs', true);
    await syncAccount(db, login);
    expect(starred('theirs')).toBe(1);
    expect(search('is:starred', 10).map((h) => h.messageId)).toEqual(['<theirs@example.com>']);

    await flagOnServer('theirs', false);
    await syncAccount(db, login);
    expect(starred('theirs')).toBe(0);
    expect(search('is:starred', 10)).toEqual([]);
  });
});
