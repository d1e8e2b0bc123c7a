// IDLE on the selected folder (issue 5), against a real Dovecot: the folder the page opens is the one its
// account's background sync waits on, so mail that another client puts there arrives without a "Sync now";
// with no folder open, or when the open folder is gone from the server, the wait is on INBOX again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract.ts';
import { call, callRaw } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let app: App;
let accountId = 0;
const statuses: Extract<StreamEvent, { type: 'account_status' }>[] = [];
const stored = (messageId: string) =>
  app.db.prepare('SELECT count(*) FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const folderOf = (path: string) =>
  app.db
    .prepare(
      `SELECT f.id FROM folders f JOIN imap_folders i ON i.folder_id = f.id WHERE f.account_id = ? AND i.path = ?`,
    )
    .pluck()
    .get(accountId, path) as number | undefined;

async function onServer(work: (c: Awaited<ReturnType<Dovecot['client']>>) => Promise<unknown>) {
  const c = await server.client();
  try {
    await work(c);
  } finally {
    await c.logout();
  }
}

/** "Sync now" (with the background sync running, it wakes it) until its round ends. */
function syncNow(): Promise<void> {
  return new Promise((resolve, reject) => {
    const seen: StreamEvent[] = [];
    let streamId: string | null = null;
    const check = () => {
      const end = seen.find((e) => e.type === 'sync_done' || e.type === 'error');
      if (!end) return;
      off();
      if (end.type === 'sync_done') resolve();
      else reject(new Error(`the sync ended with ${JSON.stringify(end)}`));
    };
    const off = app.streams.listen((m) => {
      if (m.streamId !== streamId) return;
      seen.push(StreamMessage.parse(m).event);
      check();
    });
    call(app, 'account:sync', { id: accountId }).then(({ streamId: id }) => {
      streamId = id;
    }, reject);
  });
}

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [eml({ id: '<i1@example.com>', subject: 'Inbox 1' })]);
  await onServer((c) => c.mailboxCreate('Projects'));
  await server.append('Projects', [eml({ id: '<p1@example.com>', subject: 'Project 1' })]);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const { streamId } = await call(app, 'account:watch', {});
  app.streams.listen((m) => {
    const parsed = StreamMessage.parse(m);
    if (parsed.streamId === streamId && parsed.event.type === 'account_status') statuses.push(parsed.event);
  });
  accountId = (
    await call(app, 'account:add', {
      name: 'focused',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: server.host, port: server.port, tls: 'none' },
    })
  ).id;
  // The first round is over: every folder has been seen once.
  while (!statuses.some((s) => s.state === 'synced')) await new Promise((r) => setTimeout(r, 50));
}, 30_000);

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

describe('waiting for news on the folder the page shows', () => {
  test('mail that reached a folder before it was opened is fetched when it is opened', async () => {
    await server.append('Projects', [eml({ id: '<p2@example.com>', subject: 'Project 2' })]);
    expect(await call(app, 'account:focus', { folderId: folderOf('Projects') ?? 0 })).toEqual({
      watching: true,
    });
    await expect.poll(() => stored('<p2@example.com>'), { timeout: 10_000 }).toBe(1);
  });

  test('new mail in the open folder arrives without asking', async () => {
    await server.append('Projects', [eml({ id: '<p3@example.com>', subject: 'Project 3' })]);
    await expect.poll(() => stored('<p3@example.com>'), { timeout: 10_000 }).toBe(1);
  });

  test('with no folder open, the wait is on INBOX again', async () => {
    expect(await call(app, 'account:focus', { folderId: null })).toEqual({ watching: false });
    await server.append('INBOX', [eml({ id: '<i2@example.com>', subject: 'Inbox 2' })]);
    await expect.poll(() => stored('<i2@example.com>'), { timeout: 10_000 }).toBe(1);
  });

  test('an open folder that is gone from the server falls back to INBOX', async () => {
    await call(app, 'account:focus', { folderId: folderOf('Projects') ?? 0 });
    await onServer((c) => c.mailboxDelete('Projects'));
    // A round that sees Projects gone waits on INBOX after it (idle-folder.ts).
    await syncNow();
    await server.append('INBOX', [eml({ id: '<i3@example.com>', subject: 'Inbox 3' })]);
    await expect.poll(() => stored('<i3@example.com>'), { timeout: 10_000 }).toBe(1);
  });

  test('a folder that is not in the mailbox is not found', async () => {
    expect(await callRaw(app, 'account:focus', { folderId: 9999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
