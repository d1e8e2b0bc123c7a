// The app's background sync over the bridge (issue 5): in the long-running app (`skimmer serve`, desktop)
// adding an account starts its sync, `account:watch` streams its status, new mail on the server shows up
// without asking, "Sync now" wakes the running sync, and removing the account stops it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let app: App;
const statuses: Extract<StreamEvent, { type: 'account_status' }>[] = [];
let accountId = 0;
const count = () => app.db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [eml({ id: '<w1@example.com>', subject: 'Watch 1' })]);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const { streamId } = await call(app, 'account:watch', {});
  app.streams.listen((m) => {
    StreamMessage.parse(m);
    if (m.streamId === streamId && m.event.type === 'account_status') statuses.push(m.event);
  });
});

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

describe('background sync in the app', () => {
  test('adding an account starts its sync, and the watchers hear it', async () => {
    const view = await call(app, 'account:add', {
      name: 'watched',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: server.host, port: server.port, tls: 'none' },
    });
    accountId = view.id;
    await expect.poll(() => statuses.some((s) => s.state === 'synced' && s.changed)).toBe(true);
    expect(count()).toBe(1);
    expect(statuses.find((s) => s.state === 'synced')?.summary).toMatchObject({ added: 1 });
  });

  test('new mail arrives without asking', async () => {
    await server.append('INBOX', [eml({ id: '<w2@example.com>', subject: 'Watch 2' })]);
    await expect.poll(count).toBe(2);
  });

  test('"Sync now" follows the running sync to its end', async () => {
    const { streamId } = await call(app, 'account:sync', { id: accountId });
    const events: StreamEvent[] = [];
    app.streams.listen((m) => {
      if (m.streamId === streamId) events.push(m.event);
    });
    await expect.poll(() => events.at(-1)?.type).toBe('sync_done');
  });

  test('archiving in the app moves the message on the server, soon after', async () => {
    const id = app.db
      .prepare("SELECT id FROM messages WHERE message_id = '<w1@example.com>'")
      .pluck()
      .get() as number;
    expect(await call(app, 'mail:archive', { ids: [id] })).toEqual({ changed: 1 });
    const inArchive = async () => {
      const c = await server.client();
      try {
        await c.mailboxOpen('Archive', { readOnly: true });
        return ((await c.search({ header: { 'message-id': '<w1@example.com>' } }, { uid: true })) || [])
          .length;
      } finally {
        await c.logout();
      }
    };
    await expect.poll(inArchive).toBe(1);
    const thread = await call(app, 'mail:thread', {
      threadId: app.db.prepare('SELECT thread_id FROM messages WHERE id = ?').pluck().get(id) as number,
    });
    expect(thread.messages[0]?.syncError).toBeNull();
  });

  test('a new password restarts the sync', async () => {
    const view = await call(app, 'account:update', { id: accountId, password: 'secret' });
    expect(view).toMatchObject({ hasPassword: true, lastError: null });
    const seen = statuses.length;
    await server.append('INBOX', [eml({ id: '<w3@example.com>', subject: 'Watch 3' })]);
    await expect.poll(() => statuses.slice(seen).some((s) => s.state === 'synced')).toBe(true);
    await expect
      .poll(() =>
        app.db.prepare("SELECT count(*) FROM messages WHERE message_id = '<w3@example.com>'").pluck().get(),
      )
      .toBe(1);
  });

  test('removing the account stops its sync', async () => {
    await call(app, 'account:remove', { id: accountId });
    await expect.poll(() => statuses.at(-1)?.state).toBe('stopped');
  });
});
