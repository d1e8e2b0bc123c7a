// Undo out of order (DESIGN §11, "Undo by id"), over the bridge on a real SQLite mailbox filled by an import: an
// undo applies only while every message is still where its action left it. Archive, then Trash from Archive,
// then Undo of the archive: the message was moved since, so the undo is refused with a sentence, nothing
// changes, and the entry leaves the list; the Trash's undo still brings it back to Archive.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call, callRaw, streamUntil } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const idOf = (subject: string) =>
  app.db.prepare('SELECT id FROM messages WHERE subject = ?').pluck().get(subject) as number;
const folderOf = (subject: string) =>
  app.db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ?')
    .pluck()
    .get(subject) as string;
const undoable = async () => (await call(app, 'mail:undoable', { limit: 50 })).map((e) => e.description);
const folderNames = () => app.db.prepare('SELECT name FROM folders ORDER BY name').pluck().all() as string[];

beforeAll(async () => {
  const root = tempDir();
  mkdirSync(join(root, 'work'));
  for (const [i, subject] of ['Budget', 'Offsite', 'Hiring', 'Labels'].entries()) {
    writeFileSync(join(root, 'work', `m${i}.eml`), eml({ id: `<m${i}@x>`, subject }));
  }
  const { streamId } = await call(app, 'mail:import', { paths: [join(root, 'work')] });
  await streamUntil(app, streamId, ['import_done']);
});

describe('an undo whose messages moved since', () => {
  test('is refused with a sentence, changes nothing and leaves the list; the later undo still works', async () => {
    await call(app, 'mail:archive', { ids: [idOf('Budget')] });
    const [archived] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:trash', { ids: [idOf('Budget')] });
    const [trashed] = await call(app, 'mail:undoable', { limit: 1 });
    expect(folderOf('Budget')).toBe('Trash');
    const foldersBefore = folderNames();

    expect(await callRaw(app, 'mail:undo', { id: archived?.id })).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'Cannot undo “Archived 1 message”: the message was moved since; nothing was undone.',
      },
    });
    expect(folderOf('Budget')).toBe('Trash');
    expect(folderNames()).toEqual(foldersBefore);
    expect(await undoable()).not.toContain('Archived 1 message');
    expect(await undoable()).toContain('Moved to Trash 1 message');
    // Asked again (another page's stale Undo bar), the same sentence, and still nothing changes.
    expect(await callRaw(app, 'mail:undo', { id: archived?.id })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('was moved since') },
    });

    // The trash's own undo is in order: back to Archive, whose folder is still there.
    expect((await call(app, 'mail:undo', { id: trashed?.id ?? 0 })).undone).toEqual([trashed]);
    expect(folderOf('Budget')).toBe('Archive');
    expect(await undoable()).not.toContain('Moved to Trash 1 message');
  });

  test('undo by count stops at an entry whose messages moved since, drops it, and undoes nothing', async () => {
    await call(app, 'mail:archive', { ids: [idOf('Offsite')] });
    // Moved back meanwhile without an undo entry of its own (as a sync does when the server moved it).
    const work = app.db.prepare("SELECT id FROM folders WHERE name = 'work'").pluck().get() as number;
    app.db.prepare('UPDATE messages SET folder_id = ? WHERE id = ?').run(work, idOf('Offsite'));
    // A newer entry, undone first by a count of 2 if the request were not refused as a whole.
    await call(app, 'mail:star', { ids: [idOf('Hiring')], starred: true });
    const before = await undoable();
    expect(before.slice(0, 2)).toEqual(['Starred 1 message', 'Archived 1 message']);

    const refused = (await callRaw(app, 'mail:undo', { count: 2 })) as {
      ok: boolean;
      error?: { message: string };
    };
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toBe(
      'Cannot undo “Archived 1 message”: the message was moved since; nothing was undone.',
    );
    // The newer entry was not undone either: the whole request changed nothing.
    expect(app.db.prepare('SELECT starred FROM messages WHERE id = ?').pluck().get(idOf('Hiring'))).toBe(1);
    expect(folderOf('Offsite')).toBe('work');
    expect(await undoable()).toEqual(before.filter((d) => d !== 'Archived 1 message'));
  });

  test('a read flag changed since, a label taken off since: refused the same way', async () => {
    const labels = { scope: { view: 'all' as const }, threads: [threadOf('Labels')] };
    await call(app, 'mail:bulk', { selection: labels, action: { kind: 'read', read: true } });
    const [read] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:bulk', { selection: labels, action: { kind: 'read', read: false } });
    expect(await callRaw(app, 'mail:undo', { id: read?.id })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        message:
          'Cannot undo “Marked 1 message read”: the message was marked unread since; nothing was undone.',
      },
    });
    await call(app, 'mail:bulk', {
      selection: labels,
      action: { kind: 'label', add: ['Receipts'], remove: [] },
    });
    const [labelled] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:bulk', {
      selection: labels,
      action: { kind: 'label', add: [], remove: ['Receipts'] },
    });
    expect(await callRaw(app, 'mail:undo', { id: labelled?.id })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('the labels were changed since; nothing was undone.') },
    });
    expect(await undoable()).not.toContain(labelled?.description);
  });
});

const threadOf = (subject: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE subject = ?').pluck().get(subject) as number;
