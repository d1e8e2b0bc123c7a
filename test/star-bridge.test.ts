// Stars over the bridge (DESIGN §11, "Stars"), on a real SQLite file with imported local mail: `mail:star`
// stars and unstars, shows on the message and its thread, is undone like any mail action, and `is:starred`
// finds exactly the starred messages. Local mail queues nothing for a server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const idOf = (name: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${name}@x>`) as number;
const threadOf = (name: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE message_id = ?').pluck().get(`<${name}@x>`) as number;
const starredHits = async () =>
  (await call(app, 'mail:search', { query: 'is:starred' })).map((h) => h.messageId).sort();

beforeAll(async () => {
  const mail = tempDir();
  for (const name of ['one', 'two', 'three'])
    writeFileSync(join(mail, `${name}.eml`), eml({ id: `<${name}@x>`, subject: `About ${name}` }));
  await app.importFiles([mail], () => {}).done;
});

describe('mail:star', () => {
  test('stars a message, shows it on the message and its thread, and is:starred finds it', async () => {
    expect(await starredHits()).toEqual([]);
    expect(await call(app, 'mail:star', { ids: [idOf('one'), idOf('two')], starred: true })).toEqual({
      changed: 2,
    });
    expect(await starredHits()).toEqual(['<one@x>', '<two@x>']);
    const thread = await call(app, 'mail:thread', { threadId: threadOf('one') });
    expect(thread.messages.map((m) => m.starred)).toEqual([true]);
    const { threads } = await call(app, 'mail:threads', { folderId: null });
    expect(threads.find((t) => t.id === threadOf('one'))?.starred).toBe(true);
    expect(threads.find((t) => t.id === threadOf('three'))?.starred).toBe(false);
    // Starring what is starred already changes nothing and records nothing to undo.
    const [entry] = await call(app, 'mail:undoable', { limit: 1 });
    expect(entry?.description).toBe('Starred 2 messages');
    expect(await call(app, 'mail:star', { ids: [idOf('one')], starred: true })).toEqual({ changed: 0 });
    expect(await call(app, 'mail:undoable', { limit: 1 })).toEqual([entry]);
  });

  test('unstars, and undo puts the star back', async () => {
    expect(await call(app, 'mail:star', { ids: [idOf('one')], starred: false })).toEqual({ changed: 1 });
    expect(await starredHits()).toEqual(['<two@x>']);
    const { undone } = await call(app, 'mail:undo', { count: 1 });
    expect(undone.map((u) => u.description)).toEqual(['Unstarred 1 message']);
    expect(await starredHits()).toEqual(['<one@x>', '<two@x>']);
    // And undoing the star itself takes both off again.
    await call(app, 'mail:undo', { count: 1 });
    expect(await starredHits()).toEqual([]);
    expect(app.db.prepare('SELECT count(*) FROM mail_ops').pluck().get()).toBe(0);
  });
});
