// Undo by id (issue 5), against a real Dovecot: `mail:undo {id}` takes back exactly the action the page
// names (the one its Undo bar shows), even when other actions came after it, and the server follows at the
// next sync; an action already undone, or unknown, is refused with a sentence. `{count}` still works.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { channels, envelope, StreamMessage } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

let server: Dovecot;
let app: App;
let accountId = 0;
const names = ['first', 'second', 'third'];
const idOf = (name: string) =>
  app.db
    .prepare('SELECT id FROM messages WHERE message_id = ?')
    .pluck()
    .get(`<${name}@example.com>`) as number;
const folderOf = (name: string) =>
  app.db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?')
    .pluck()
    .get(idOf(name)) as string;

/** The server's mailbox of a message, read with a client of our own. */
async function mailboxOnServer(name: string): Promise<string[]> {
  const c = await server.client();
  const found: string[] = [];
  try {
    for (const box of await c.list()) {
      await c.mailboxOpen(box.path, { readOnly: true });
      const uids =
        (await c.search({ header: { 'message-id': `<${name}@example.com>` } }, { uid: true })) || [];
      if (uids.length > 0) found.push(box.path);
    }
  } finally {
    await c.logout();
  }
  return found;
}

/** One sync through the bridge (no background sync here), to its end. */
function syncOnce(): Promise<void> {
  return new Promise((resolve, reject) => {
    let streamId: string | null = null;
    const off = app.streams.listen((m) => {
      if (m.streamId !== streamId) return;
      const { event } = StreamMessage.parse(m);
      if (event.type === 'sync_done') {
        off();
        resolve();
      } else if (event.type === 'error') {
        off();
        reject(new Error(event.error.message));
      }
    });
    call(app, 'account:sync', { id: accountId }).then(({ streamId: id }) => {
      streamId = id;
    }, reject);
  });
}

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    names.map((n) => eml({ id: `<${n}@example.com>`, subject: `The ${n}` })),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  accountId = (
    await call(app, 'account:add', {
      name: 'undo',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: server.host, port: server.port, tls: 'none' },
    })
  ).id;
  await syncOnce();
}, 30_000);

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

const undoRaw = async (request: unknown) =>
  envelope(channels['mail:undo'].response).parse(await callRaw(app, 'mail:undo', request));

describe('undo by id', () => {
  test('undoes exactly the named action, not the ones after it, here and on the server', async () => {
    await call(app, 'mail:archive', { ids: [idOf('first')] });
    const [archived] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:archive', { ids: [idOf('second')] });
    await call(app, 'mail:trash', { ids: [idOf('third')] });
    const before = await call(app, 'mail:undoable', { limit: 10 });

    const { undone } = await call(app, 'mail:undo', { id: archived?.id ?? 0 });
    expect(undone).toEqual([archived]);
    expect(folderOf('first')).toBe('Inbox');
    expect(folderOf('second')).toBe('Archive');
    expect(folderOf('third')).toBe('Trash');
    expect(await call(app, 'mail:undoable', { limit: 10 })).toEqual(
      before.filter((e) => e.id !== archived?.id),
    );

    await syncOnce();
    expect(await mailboxOnServer('first')).toEqual(['INBOX']);
    expect(await mailboxOnServer('second')).toEqual(['Archive']);
    expect(await mailboxOnServer('third')).toEqual(['Trash']);
  });

  test('an action already undone is refused, and nothing changes', async () => {
    const [newest] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:undo', { id: newest?.id ?? 0 });
    expect(folderOf('third')).toBe('Inbox');
    const after = await call(app, 'mail:undoable', { limit: 10 });
    expect(await undoRaw({ id: newest?.id })).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'That action was already undone.' },
    });
    expect(await call(app, 'mail:undoable', { limit: 10 })).toEqual(after);
  });

  test('an unknown action is not found', async () => {
    expect(await undoRaw({ id: 99_999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('undo by count still takes back the newest actions', async () => {
    const [newest] = await call(app, 'mail:undoable', { limit: 1 });
    expect((await call(app, 'mail:undo', { count: 1 })).undone).toEqual([newest]);
    expect(folderOf('second')).toBe('Inbox');
  });

  test('a request with both an id and a count is refused', async () => {
    expect(await undoRaw({ id: 1, count: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
