// The place views (Starred, Drafts, Sent, Archive, Spam, Trash) over the bridge, on a real SQLite mailbox filled
// by an import: each lists every folder of its place, across imports; Starred lists starred conversations
// anywhere but Trash and Spam; and every folder says whose it is (an import's folders are this computer's).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import type { MailView } from '../shared/contract/index.ts';
import { call, streamUntil } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const listed = async (view: MailView) => {
  const r = await call(app, 'mail:threads', { folderId: null, view, offset: 0, limit: 100 });
  return { total: r.total, subjects: r.threads.map((t) => t.subject).sort() };
};
const messageIds = async (subject: string) => {
  const views = ['all', 'trash', 'spam'] as const;
  const lists = await Promise.all(
    views.map((view) => call(app, 'mail:threads', { folderId: null, view, offset: 0, limit: 100 })),
  );
  const thread = lists.flatMap((l) => l.threads).find((t) => t.subject === subject);
  return (await call(app, 'mail:thread', { threadId: thread?.id ?? 0 })).messages.map((m) => m.id);
};

beforeAll(async () => {
  // Two imports, each with its own Sent: the Sent view holds both.
  for (const [root, tag] of [
    [tempDir(), 'a'],
    [tempDir(), 'b'],
  ] as const) {
    const put = (folder: string, name: string, text: string) => {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, `${name}.eml`), text);
    };
    put('work', `lunch-${tag}`, eml({ id: `<lunch-${tag}@x>`, subject: `Lunch ${tag}` }));
    put('Sent', `sent-${tag}`, eml({ id: `<sent-${tag}@x>`, subject: `Sent ${tag}` }));
    put('Junk', `junk-${tag}`, eml({ id: `<junk-${tag}@x>`, subject: `Win ${tag}` }));
    const { streamId } = await call(app, 'mail:import', { paths: [root] });
    await streamUntil(app, streamId, ['import_done']);
  }
});

describe('the place views', () => {
  test('Sent and Spam list the folders of their place from every import', async () => {
    expect(await listed('sent')).toEqual({ total: 2, subjects: ['Sent a', 'Sent b'] });
    expect(await listed('spam')).toEqual({ total: 2, subjects: ['Win a', 'Win b'] });
    expect(await listed('drafts')).toEqual({ total: 0, subjects: [] });
  });

  test('imported folders belong to no account', async () => {
    const folders = await call(app, 'mail:folders', {});
    expect(folders.length).toBe(6);
    expect(folders.every((f) => f.account === null)).toBe(true);
  });

  test('Starred lists a starred conversation wherever it is, but not in Trash or Spam', async () => {
    expect(await listed('starred')).toEqual({ total: 0, subjects: [] });
    await call(app, 'mail:star', { ids: await messageIds('Lunch a'), starred: true });
    await call(app, 'mail:star', { ids: await messageIds('Sent b'), starred: true });
    await call(app, 'mail:star', { ids: await messageIds('Win a'), starred: true });
    expect(await listed('starred')).toEqual({ total: 2, subjects: ['Lunch a', 'Sent b'] });
    await call(app, 'mail:trash', { ids: await messageIds('Sent b') });
    expect(await listed('starred')).toEqual({ total: 1, subjects: ['Lunch a'] });
  });

  test('Archive and Trash list what was moved there, and it leaves the Inbox', async () => {
    await call(app, 'mail:archive', { ids: await messageIds('Lunch a') });
    expect(await listed('archive')).toEqual({ total: 1, subjects: ['Lunch a'] });
    expect(await listed('trash')).toEqual({ total: 1, subjects: ['Sent b'] });
    expect(await listed('inbox')).toEqual({ total: 1, subjects: ['Lunch b'] });
    // Archived and still starred: Starred keeps it, as Gmail does.
    expect(await listed('starred')).toEqual({ total: 1, subjects: ['Lunch a'] });
  });
});
