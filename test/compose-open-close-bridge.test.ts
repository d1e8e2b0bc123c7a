// Opening the composer and closing it without writing (issue 29 §7): the conversation answered keeps its place
// in the Inbox, on screen and after a reload. The app's bridge with a real SQLite file, a real Dovecot and an
// SMTP server on loopback, the renderer's calls in its order (draft:new `unwritten`, then draft:discard on
// close), with a sync in between as the background sync makes one. Before the fix the empty reply went to the
// server's Drafts at once, the sync brought it back into the conversation, whose date became now, and the
// discard took the draft away but not the new place.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { call } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { addMailAccount } from './support/mail-account.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let sink: SmtpSink;
let app: App;
let accountId = 0;

const sync = async () => syncAccount(app.db, await app.accounts.login(accountId));
const inbox = async () =>
  (await call(app, 'mail:threads', { view: 'inbox' })).threads.map((t) => [t.subject, t.lastDate]);
const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
/** The messages the server keeps in its Drafts. */
async function serverDrafts(): Promise<number> {
  const c = await server.client();
  try {
    const box = (await c.list()).find((b) => b.specialUse === '\\Drafts' || b.path === 'Drafts');
    if (!box) return 0;
    const status = await c.status(box.path, { messages: true });
    return status === false ? 0 : (status.messages ?? 0);
  } finally {
    await c.logout();
  }
}

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append('INBOX', [
    eml({ id: '<older@example.org>', subject: 'Older', date: 'Sat, 28 Nov 2026 09:00:00 +0000' }),
    eml({ id: '<newer@example.org>', subject: 'Newer', date: 'Sun, 29 Nov 2026 09:00:00 +0000' }),
  ]);
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  accountId = await addMailAccount(app, server, sink);
  await sync();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sink?.close();
  await server?.stop();
});

describe('the composer opened and closed unwritten', () => {
  test.each([
    ['reply', 'reply'],
    ['reply all', 'all'],
    ['forward', 'forward'],
  ] as const)(
    'a %s leaves the conversation where it was, through syncs, in the list as a reload reads it',
    async (_, kind) => {
      const before = await inbox();
      expect(before.map(([subject]) => subject)).toEqual(['Newer', 'Older']);
      const draft = await call(app, 'draft:new', {
        kind,
        message: idOf('<older@example.org>'),
        to: [],
        body: '',
        unwritten: true,
      });
      await sync();
      expect(await serverDrafts()).toBe(0);
      expect(await inbox()).toEqual(before);
      await call(app, 'draft:discard', { id: draft.id });
      await sync();
      expect(await inbox()).toEqual(before);
      expect(await call(app, 'draft:list', {})).toEqual([]);
    },
  );

  test('a blank new mail puts nothing on the server either', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      to: [],
      cc: [],
      subject: '',
      body: '',
      unwritten: true,
    });
    await sync();
    expect(await serverDrafts()).toBe(0);
    await call(app, 'draft:discard', { id: draft.id });
  });

  // What is written is kept on the server as before: from the first save.
  test('the first save puts the draft in the server’s Drafts', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'reply',
      message: idOf('<newer@example.org>'),
      to: [],
      body: '',
      unwritten: true,
    });
    await call(app, 'draft:save', {
      id: draft.id,
      fromAddress: null,
      to: draft.to,
      cc: draft.cc,
      bcc: [],
      subject: draft.subject,
      body: `Sounds good.\n\n${draft.body}`,
    });
    await sync();
    expect(await serverDrafts()).toBe(1);
    await call(app, 'draft:discard', { id: draft.id });
    await sync();
    expect(await serverDrafts()).toBe(0);
  });
});
