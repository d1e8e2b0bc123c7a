// Trash, folders and label renames over the bridge (issue 29 §4, §7), on a real SQLite file with imported mail
// (no server: local only): Restore puts a conversation back where it was, Delete forever and Empty Trash take only
// what is in Trash, folders are made, renamed and deleted with their names checked, and a label rename is undone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call, callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const threadOf = (name: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE message_id = ?').pluck().get(`<${name}@x>`) as number;
const folderOf = (name: string) =>
  app.db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = ?')
    .pluck()
    .get(`<${name}@x>`) as string | undefined;
const bulk = (names: string[] | null, action: object, view = 'all') =>
  call(app, 'mail:bulk', {
    selection: { scope: { view }, ...(names ? { threads: names.map(threadOf) } : {}) },
    action,
  } as never);

beforeAll(async () => {
  const mail = join(tempDir(), 'Lists');
  mkdirSync(mail);
  for (const name of ['one', 'two', 'three', 'four'])
    writeFileSync(join(mail, `${name}.eml`), eml({ id: `<${name}@x>`, subject: `About ${name}` }));
  await app.importFiles([mail], () => {}).done;
});

test('Restore puts a conversation back in the folder Trash took it from', async () => {
  await bulk(['one'], { kind: 'trash' });
  expect(folderOf('one')).toBe('Trash');
  expect(await bulk(['one'], { kind: 'restore' }, 'trash')).toEqual({ threads: 1, changed: 1 });
  expect(folderOf('one')).toBe('Lists');
  const [entry] = await call(app, 'mail:undoable', { limit: 1 });
  expect(entry?.description).toBe('Restored 1 message from Trash');
});

test('Delete forever takes only what is in Trash; Empty Trash takes all of it', async () => {
  await bulk(['two', 'three'], { kind: 'trash' });
  // Selected outside Trash, nothing is deleted.
  expect(await bulk(['four'], { kind: 'deleteForever' })).toEqual({ threads: 1, changed: 0 });
  expect(folderOf('four')).toBe('Lists');
  expect(await bulk(['two'], { kind: 'deleteForever' }, 'trash')).toEqual({ threads: 1, changed: 1 });
  expect(folderOf('two')).toBeUndefined();
  expect(await bulk(null, { kind: 'deleteForever' }, 'trash')).toEqual({ threads: 1, changed: 1 });
  expect(folderOf('three')).toBeUndefined();
  expect(folderOf('four')).toBe('Lists');
});

test('folders are made, renamed and deleted here; bad names and full folders are refused', async () => {
  const { id } = await call(app, 'folder:create', { accountId: null, name: ' Receipts ' });
  expect((await call(app, 'mail:folders', {})).find((f) => f.id === id)?.name).toBe('Receipts');
  expect(await call(app, 'folder:rename', { id, name: 'Paid' })).toEqual({ changed: true });
  expect((await call(app, 'mail:folders', {})).find((f) => f.id === id)?.name).toBe('Paid');
  for (const [name, why] of [
    ['a/b', /cannot contain/],
    ['..', /cannot contain/],
    ['Trash', /special folder/],
    ['inbox', /special folder/],
    ['x'.repeat(101), /at most 100/],
    ['  ', /needs a name/],
  ] as const) {
    const reply = await callRaw(app, 'folder:create', { accountId: null, name });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(reply.ok ? '' : reply.error.message).toMatch(why);
  }
  expect(await callRaw(app, 'folder:create', { accountId: null, name: 'paid' })).toMatchObject({
    ok: false,
    error: { message: 'There is already a folder named “paid”.' },
  });
  const lists = (await call(app, 'mail:folders', {})).find((f) => f.name === 'Lists')?.id ?? 0;
  const full = await callRaw(app, 'folder:delete', { id: lists });
  expect(full.ok ? '' : full.error.message).toMatch(/still has 2 messages\. Move them/);
  const trash = (await call(app, 'mail:folders', {})).find((f) => f.name === 'Trash')?.id ?? 0;
  const special = await callRaw(app, 'folder:rename', { id: trash, name: 'Bin' });
  expect(special.ok ? '' : special.error.message).toMatch(/is a special folder/);
  expect(await call(app, 'folder:delete', { id })).toEqual({ ok: true });
  expect((await call(app, 'mail:folders', {})).some((f) => f.id === id)).toBe(false);
});

test('a label renamed over the bridge is undone by its Undo entry', async () => {
  await bulk(['four'], { kind: 'label', add: ['Work'], remove: [] });
  const work = (await call(app, 'label:overview', {})).find((l) => l.name === 'Work')?.id ?? 0;
  expect(await call(app, 'label:rename', { id: work, name: 'Projects' })).toEqual({
    id: work,
    merged: false,
    changed: 1,
  });
  const [entry] = await call(app, 'mail:undoable', { limit: 1 });
  await call(app, 'mail:undo', { id: entry?.id ?? 0 });
  expect((await call(app, 'label:overview', {})).map((l) => l.name)).toEqual(['Work']);
  expect(await call(app, 'label:delete', { id: work })).toEqual({ changed: 1 });
  expect(await call(app, 'label:overview', {})).toEqual([]);
});
