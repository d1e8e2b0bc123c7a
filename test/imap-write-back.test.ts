// Write-back against a real Dovecot (issue 5): every action on synced mail is applied locally at once,
// queued, and replayed to the server in order by the next sync; Undo goes to the server too; the queue
// survives a restart; a change the server refuses stays on its message with a Retry. Each check reads the
// server with a second IMAP client.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import type { AccountLogin } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { prepareWriteBack } from '../electron/mail/store/write-back.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let db: Db;
let login: AccountLogin;
const dbFile = join(tempDir(), 'skimmer.db');
const ids: Record<string, number> = {};

/** Where the server keeps a message now: mailbox, flags (and keywords), by Message-ID. */
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

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    ['read', 'archive', 'label', 'trash', 'reply', 'refuse'].map((s) =>
      eml({ id: `<${s}@example.com>`, subject: `To ${s}`, body: `Please ${s} this.` }),
    ),
  );
  db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  login = loginFor(server, accountId, 'test');
  await syncAccount(db, login);
  for (const s of ['read', 'archive', 'label', 'trash', 'reply', 'refuse']) {
    ids[s] = db
      .prepare('SELECT id FROM messages WHERE message_id = ?')
      .pluck()
      .get(`<${s}@example.com>`) as number;
  }
});

afterAll(async () => {
  db?.close();
  await server?.stop();
});

describe('write-back to Dovecot', () => {
  test('applies each action locally at once and on the server at the next sync', async () => {
    const actions = prepareMailActions(db);
    actions.markRead([ids.read as number], true);
    actions.moveToSpecial([ids.archive as number], 'archive');
    actions.label([ids.label as number], ['Paid'], []);
    actions.moveToSpecial([ids.trash as number], 'trash');
    actions.createDraft({
      to: ['alice@example.com'],
      cc: [],
      subject: 'Re: To reply',
      body: 'Done.',
      inReplyTo: ids.reply as number,
    });
    // Local at once: the Archive and Trash are the server's own special-use folders.
    const folder = (id: number) =>
      db
        .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?')
        .pluck()
        .get(id);
    expect(folder(ids.archive as number)).toBe('Archive');
    expect(folder(ids.trash as number)).toBe('Trash');
    expect(
      prepareWriteBack(db)
        .pending(login.id)
        .map((o) => o.kind),
    ).toEqual(['seen', 'move', 'keywords', 'move', 'append_draft']);
    expect(await onServer('<archive@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);

    const summary = await syncAccount(db, login);
    expect(summary.pushed).toBe(5);
    // The draft now on the server is read back as a message of the Drafts folder; nothing else is new.
    expect(summary.added).toBe(1);
    expect(
      db
        .prepare(
          "SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = 'Re: To reply'",
        )
        .pluck()
        .get(),
    ).toBe('Drafts');
    expect(prepareWriteBack(db).pending(login.id)).toEqual([]);
    expect(await onServer('<read@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['\\Seen'] }]);
    expect(await onServer('<archive@example.com>')).toEqual([{ mailbox: 'Archive', flags: [] }]);
    expect(await onServer('<label@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['Paid'] }]);
    expect(await onServer('<trash@example.com>')).toEqual([{ mailbox: 'Trash', flags: [] }]);
    // The moved messages kept their ids and their new locations; nothing was downloaded again.
    expect(folder(ids.archive as number)).toBe('Archive');
    const c = await server.client();
    try {
      await c.mailboxOpen('Drafts', { readOnly: true });
      const [draft] = await c.fetchAll('1:*', { source: true, flags: true });
      expect([...(draft?.flags ?? [])].filter((f) => f !== '\\Recent').sort()).toEqual(['\\Draft', '\\Seen']);
      expect(draft?.source?.toString()).toMatch(/In-Reply-To: <reply@example.com>/);
      expect(draft?.source?.toString()).toMatch(/Subject: Re: To reply/);
    } finally {
      await c.logout();
    }
  });

  test('undo goes to the server too', async () => {
    const actions = prepareMailActions(db);
    expect(actions.undo(5)).toHaveLength(5);
    const summary = await syncAccount(db, login);
    expect(summary).toMatchObject({ pushed: 5, removed: 1 });
    expect(await onServer('<read@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    expect(await onServer('<archive@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    expect(await onServer('<label@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    expect(await onServer('<trash@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    const c = await server.client();
    try {
      const status = await c.status('Drafts', { messages: true });
      expect(status === false ? null : status.messages).toBe(0);
    } finally {
      await c.logout();
    }
  });

  test('the queue survives a restart', async () => {
    prepareMailActions(db).markRead([ids.read as number], true);
    db.close();
    db = openDatabase(dbFile);
    expect(prepareWriteBack(db).pending(login.id)).toHaveLength(1);
    expect((await syncAccount(db, login)).pushed).toBe(1);
    expect(await onServer('<read@example.com>')).toEqual([{ mailbox: 'INBOX', flags: ['\\Seen'] }]);
  });

  test('a change the server refuses stays on its message, with a sentence and a retry', async () => {
    // A folder that maps to a mailbox the server does not have: MOVE answers NO.
    const accountFolder = Number(
      db
        .prepare("INSERT INTO folders (account_id, name, source) VALUES (?, 'Gone', 'imap:Gone')")
        .run(login.id).lastInsertRowid,
    );
    db.prepare("INSERT INTO imap_folders (folder_id, path) VALUES (?, 'No.Such.Box')").run(accountFolder);
    prepareMailActions(db).moveToFolder([ids.refuse as number], 'Gone');
    const summary = await syncAccount(db, login);
    expect(summary.pushed).toBe(0);
    const writeBack = prepareWriteBack(db);
    const [failed] = writeBack.failed(ids.refuse);
    expect(failed).toMatchObject({
      kind: 'move',
      state: 'failed',
      lastError: expect.stringMatching(/refused this change/),
    });
    // Kept locally, still on the server where it was.
    expect(await onServer('<refuse@example.com>')).toEqual([{ mailbox: 'INBOX', flags: [] }]);
    expect(writeBack.retry(ids.refuse as number)).toBe(1);
    expect(writeBack.pending(login.id)).toHaveLength(1);
  });
});
