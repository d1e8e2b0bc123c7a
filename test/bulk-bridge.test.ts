// Several conversations at once over the bridge (issue 16, DESIGN §11 "Several at once"), on a real SQLite
// mailbox filled by an import: `mail:bulk` takes thread ids or a whole folder, view or search, changes them in
// one transaction with one Undo entry, and refuses what is out of bounds; spam and "not spam" for imported
// mail use a local Spam folder and Inbox made when first needed; `mail:selectionLabels` counts labels per
// selected conversation for the picker.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import type { MailView, SelectionScope } from '../shared/contract/index.ts';
import { call, callRaw, streamUntil } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const topics = Array.from({ length: 12 }, (_, i) => `Topic ${String(i + 1).padStart(2, '0')}`);

const list = async (scope: { view: MailView } | { folderId: number }) => {
  const r = await call(app, 'mail:threads', { folderId: null, ...scope, offset: 0, limit: 500 });
  return r.threads;
};
// A conversation's subject is its first stored message's: the reply's, when Sent was read first.
const subjectsIn = async (scope: { view: MailView } | { folderId: number }) =>
  (await list(scope)).map((t) => t.subject.replace(/^Re: /, '')).sort();
const threadIds = async (...subjects: string[]) =>
  subjects.map(
    (s) => app.db.prepare('SELECT thread_id FROM messages WHERE subject = ?').pluck().get(s) as number,
  );
const folderNamed = async (name: string) =>
  (await call(app, 'mail:folders', {})).find((f) => f.name === name);
const folderOf = (subject: string) =>
  app.db
    .prepare(
      'SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ? ORDER BY m.id',
    )
    .pluck()
    .all(subject);
const inbox: SelectionScope = { view: 'inbox' };

beforeAll(async () => {
  const root = tempDir();
  const put = (folder: string, name: string, text: string) => {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, `${name}.eml`), text);
  };
  topics.forEach((t, i) => {
    const day = String(10 + i).padStart(2, '0');
    put('work', `t${i}`, eml({ id: `<t${i}@x>`, subject: t, date: `Tue, ${day} Nov 2026 09:00:00 +0000` }));
  });
  // The user's reply to Topic 01 sits in Sent: the same conversation, another folder.
  put(
    'Sent',
    'reply',
    eml({
      id: '<reply@x>',
      subject: 'Re: Topic 01',
      from: 'Bob <bob@example.com>',
      inReplyTo: '<t0@x>',
      references: '<t0@x>',
      date: 'Mon, 30 Nov 2026 09:00:00 +0000',
    }),
  );
  put(
    'Projects',
    'p',
    eml({ id: '<p@x>', subject: 'Project plan', date: 'Sun, 01 Nov 2026 09:00:00 +0000' }),
  );
  const { streamId } = await call(app, 'mail:import', { paths: [root] });
  await streamUntil(app, streamId, ['import_done']);
});

describe('mail:bulk', () => {
  test('archives three chosen conversations as one Undo entry, and that one Undo brings all back', async () => {
    const before = (await call(app, 'mail:undoable', { limit: 50 })).length;
    const threads = await threadIds('Topic 01', 'Topic 02', 'Topic 03');
    const done = await call(app, 'mail:bulk', {
      selection: { scope: inbox, threads },
      action: { kind: 'archive' },
    });
    expect(done).toEqual({ threads: 3, changed: 3 });
    const inboxNow = await subjectsIn(inbox);
    for (const t of ['Topic 01', 'Topic 02', 'Topic 03']) expect(inboxNow).not.toContain(t);
    // In the Inbox view the conversation leaves the Inbox: the reply in Sent stays where it is.
    expect(folderOf('Re: Topic 01')).toEqual(['Sent']);
    const entries = await call(app, 'mail:undoable', { limit: 50 });
    expect(entries.length).toBe(before + 1);
    expect(entries[0]?.description).toBe('Archived 3 messages');

    await call(app, 'mail:undo', { id: entries[0]?.id ?? 0 });
    expect(await subjectsIn(inbox)).toEqual([...topics, 'Project plan'].sort());
    // The Archive that only this batch had made is gone again.
    expect(await folderNamed('Archive')).toBeUndefined();
  });

  test('"all in this view" takes every conversation of the view, not a page of it', async () => {
    const projects = await folderNamed('Projects');
    const done = await call(app, 'mail:bulk', {
      selection: { scope: { folderId: projects?.id ?? 0 } },
      action: { kind: 'star', starred: true },
    });
    expect(done).toEqual({ threads: 1, changed: 1 });

    const read = await call(app, 'mail:bulk', {
      selection: { scope: inbox },
      action: { kind: 'read', read: true },
    });
    expect(read.threads).toBe(13);
    // Thirteen conversations, fourteen messages: flags take the whole conversation, as `u` does.
    expect(read.changed).toBe(14);
    expect(
      app.db
        .prepare("SELECT count(*) FROM messages WHERE unread = 1 AND subject LIKE 'Topic%'")
        .pluck()
        .get(),
    ).toBe(0);
    expect(app.db.prepare("SELECT unread FROM messages WHERE subject = 'Re: Topic 01'").pluck().get()).toBe(
      0,
    );
    const [undoRead, undoStar] = await call(app, 'mail:undoable', { limit: 2 });
    expect(undoRead?.description).toBe('Marked 14 messages read');
    await call(app, 'mail:undo', { id: undoRead?.id ?? 0 });
    await call(app, 'mail:undo', { id: undoStar?.id ?? 0 });
    expect(
      app.db.prepare('SELECT count(*) FROM messages WHERE unread = 0 OR starred = 1').pluck().get(),
    ).toBe(0);
  });

  test('a search selection takes every conversation the search matches', async () => {
    const done = await call(app, 'mail:bulk', {
      selection: { scope: { query: 'subject:topic' } },
      action: { kind: 'label', add: ['Review'], remove: [] },
    });
    expect(done).toEqual({ threads: 12, changed: 13 });
    const [entry] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:undo', { id: entry?.id ?? 0 });
    expect(app.db.prepare('SELECT count(*) FROM labels').pluck().get()).toBe(0);
  });

  test('the label picker learns on how many selected conversations each label is', async () => {
    const two = await threadIds('Topic 04', 'Topic 05');
    await call(app, 'mail:bulk', {
      selection: { scope: inbox, threads: two },
      action: { kind: 'label', add: ['Clients'], remove: [] },
    });
    const three = await threadIds('Topic 04', 'Topic 05', 'Topic 06');
    const picker = await call(app, 'mail:selectionLabels', { selection: { scope: inbox, threads: three } });
    expect(picker).toEqual({ threads: 3, labels: [{ name: 'Clients', threads: 2 }] });
    const off = await call(app, 'mail:bulk', {
      selection: { scope: inbox, threads: three },
      action: { kind: 'label', add: [], remove: ['Clients'] },
    });
    expect(off.changed).toBe(2);
    expect(
      (await call(app, 'mail:selectionLabels', { selection: { scope: inbox, threads: three } })).labels,
    ).toEqual([{ name: 'Clients', threads: 0 }]);
  });

  test('moves a selection to a picked folder, undoably', async () => {
    const projects = await folderNamed('Projects');
    const threads = await threadIds('Topic 07', 'Topic 08');
    const done = await call(app, 'mail:bulk', {
      selection: { scope: inbox, threads },
      action: { kind: 'move', folderId: projects?.id ?? 0 },
    });
    expect(done.changed).toBe(2);
    expect(await subjectsIn({ folderId: projects?.id ?? 0 })).toEqual([
      'Project plan',
      'Topic 07',
      'Topic 08',
    ]);
    const [entry] = await call(app, 'mail:undoable', { limit: 1 });
    expect(entry?.description).toBe('Moved 2 messages to Projects');
    await call(app, 'mail:undo', { id: entry?.id ?? 0 });
    expect(folderOf('Topic 07')).toEqual(['work']);
  });

  test('spam takes imported mail to a Spam folder made for it; Not spam puts it back where it was; Undo of each unmakes it', async () => {
    const threads = await threadIds('Topic 09', 'Topic 10');
    await call(app, 'mail:bulk', { selection: { scope: inbox, threads }, action: { kind: 'spam' } });
    const spam = await folderNamed('Spam');
    expect(spam?.place).toBe('spam');
    expect(await subjectsIn({ folderId: spam?.id ?? 0 })).toEqual(['Topic 09', 'Topic 10']);
    expect(await subjectsIn(inbox)).not.toContain('Topic 09');
    expect(await subjectsIn({ view: 'all' })).not.toContain('Topic 09');

    const notSpam = () =>
      call(app, 'mail:bulk', {
        selection: { scope: { folderId: spam?.id ?? 0 }, threads: threads.slice(0, 1) },
        action: { kind: 'notSpam' },
      });
    expect((await notSpam()).changed).toBe(1);
    // Back in the folder it was imported into, not in an Inbox made for it.
    expect(folderOf('Topic 09')).toEqual(['work']);
    expect(await folderNamed('Inbox')).toBeUndefined();
    expect(await subjectsIn(inbox)).toContain('Topic 09');

    const [undoNotSpam, marked] = await call(app, 'mail:undoable', { limit: 2 });
    expect(undoNotSpam?.description).toBe('Marked 1 message as not spam');
    expect(marked?.description).toBe('Marked 2 messages as spam');
    // Its undo puts it in Spam again, knowing still where it came from.
    await call(app, 'mail:undo', { id: undoNotSpam?.id ?? 0 });
    expect(folderOf('Topic 09')).toEqual(['Spam']);
    await notSpam();
    expect(folderOf('Topic 09')).toEqual(['work']);
    const [again] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:undo', { id: again?.id ?? 0 });
    await call(app, 'mail:undo', { id: marked?.id ?? 0 });
    expect(folderOf('Topic 09')).toEqual(['work']);
    expect(folderOf('Topic 10')).toEqual(['work']);
    expect(await folderNamed('Spam')).toBeUndefined();
    expect(app.db.prepare('SELECT count(*) FROM spam_origins').pluck().get()).toBe(0);
  });

  test('Not spam of imported mail moved into Spam by hand goes to an Inbox made for it', async () => {
    const threads = await threadIds('Topic 11');
    await call(app, 'mail:bulk', { selection: { scope: inbox, threads }, action: { kind: 'spam' } });
    const spam = await folderNamed('Spam');
    // Moved out by hand and back with Move…: Spam's note of where it was is forgotten on the way.
    await call(app, 'mail:bulk', {
      selection: { scope: { folderId: spam?.id ?? 0 }, threads },
      action: { kind: 'move', folderId: (await folderNamed('Projects'))?.id ?? 0 },
    });
    await call(app, 'mail:bulk', {
      selection: { scope: { view: 'all' }, threads },
      action: { kind: 'move', folderId: spam?.id ?? 0 },
    });
    await call(app, 'mail:bulk', {
      selection: { scope: { folderId: spam?.id ?? 0 }, threads },
      action: { kind: 'notSpam' },
    });
    expect(folderOf('Topic 11')).toEqual(['Inbox']);
    expect((await folderNamed('Inbox'))?.place).toBe('inbox');
    const [entry] = await call(app, 'mail:undoable', { limit: 1 });
    await call(app, 'mail:undo', { id: entry?.id ?? 0 });
    expect(await folderNamed('Inbox')).toBeUndefined();
    expect(folderOf('Topic 11')).toEqual(['Spam']);
  });

  test('Move to Inbox brings an archived conversation back, leaves your reply in Sent, and is undone as one entry', async () => {
    const threads = await threadIds('Topic 01');
    await call(app, 'mail:bulk', { selection: { scope: inbox, threads }, action: { kind: 'archive' } });
    expect(folderOf('Topic 01')).toEqual(['Archive']);
    expect(await subjectsIn(inbox)).not.toContain('Topic 01');

    // From All mail: every message of the conversation is in the list, the reply in Sent with them.
    const back = await call(app, 'mail:bulk', {
      selection: { scope: { view: 'all' }, threads },
      action: { kind: 'inbox' },
    });
    expect(back).toEqual({ threads: 1, changed: 1 });
    expect(folderOf('Topic 01')).toEqual(['Inbox']);
    expect(folderOf('Re: Topic 01')).toEqual(['Sent']);
    expect(await subjectsIn(inbox)).toContain('Topic 01');
    expect((await folderNamed('Inbox'))?.place).toBe('inbox');

    // Mail in an ordinary folder is in the Inbox view already: nothing to move.
    const stay = await threadIds('Topic 02');
    expect(
      await call(app, 'mail:bulk', { selection: { scope: inbox, threads: stay }, action: { kind: 'inbox' } }),
    ).toEqual({ threads: 1, changed: 0 });
    expect(folderOf('Topic 02')).toEqual(['work']);

    const [moved, archived] = await call(app, 'mail:undoable', { limit: 2 });
    expect(moved?.description).toBe('Moved 1 message to the Inbox');
    await call(app, 'mail:undo', { id: moved?.id ?? 0 });
    expect(folderOf('Topic 01')).toEqual(['Archive']);
    expect(await folderNamed('Inbox')).toBeUndefined();
    await call(app, 'mail:undo', { id: archived?.id ?? 0 });
    expect(folderOf('Topic 01')).toEqual(['work']);
  });

  test('refuses more than 10,000 conversation ids, an empty list, and an unknown conversation', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i + 1);
    for (const threads of [many, []]) {
      const r = await callRaw(app, 'mail:bulk', {
        selection: { scope: inbox, threads },
        action: { kind: 'archive' },
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    const unknown = await callRaw(app, 'mail:bulk', {
      selection: { scope: inbox, threads: [999_999] },
      action: { kind: 'archive' },
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await callRaw(app, 'mail:bulk', { selection: { scope: inbox }, action: { kind: 'delete' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
