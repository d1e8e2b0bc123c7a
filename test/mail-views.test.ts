// The Inbox and All mail views over the bridge, on a real SQLite mailbox filled by an import: imported mail
// lands in the Inbox unless its folder is named for a special use (Sent, Junk); Archive takes a thread out
// of the Inbox but not out of All mail; Trash takes it out of both and into Trash, which lists only itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import type { MailView } from '../shared/contract/index.ts';
import { call, streamUntil } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const subjects = async (where: { view: MailView } | { folderId: number }) => {
  const r = await call(app, 'mail:threads', { folderId: null, ...where, offset: 0, limit: 100 });
  return { total: r.total, subjects: r.threads.map((t) => t.subject).sort() };
};
const threadId = async (subject: string) => {
  const r = await call(app, 'mail:threads', { folderId: null, view: 'all', offset: 0, limit: 100 });
  return r.threads.find((t) => t.subject === subject)?.id ?? 0;
};
const messageIds = async (subject: string) =>
  (await call(app, 'mail:thread', { threadId: await threadId(subject) })).messages.map((m) => m.id);

beforeAll(async () => {
  const root = tempDir();
  const put = (folder: string, name: string, text: string) => {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, `${name}.eml`), text);
  };
  for (const n of ['Lunch', 'Invoice', 'Party'])
    put('work', n, eml({ id: `<${n}@x>`, subject: n, date: 'Sun, 29 Nov 2026 10:00:00 +0000' }));
  put('Sent', 'only-sent', eml({ id: '<mine@x>', subject: 'Mine', from: 'Bob <bob@example.com>' }));
  put('Junk', 'spam', eml({ id: '<spam@x>', subject: 'Win' }));
  const { streamId } = await call(app, 'mail:import', { paths: [root] });
  await streamUntil(app, streamId, ['import_done']);
});

describe('the mail views', () => {
  test('the folders say their place, and imported mail is in the Inbox unless from Sent or Junk', async () => {
    const places = Object.fromEntries((await call(app, 'mail:folders', {})).map((f) => [f.name, f.place]));
    expect(places).toEqual({ work: null, Sent: 'sent', Junk: 'spam' });
    expect(await subjects({ view: 'inbox' })).toEqual({ total: 3, subjects: ['Invoice', 'Lunch', 'Party'] });
    expect(await subjects({ view: 'all' })).toEqual({
      total: 4,
      subjects: ['Invoice', 'Lunch', 'Mine', 'Party'],
    });
  });

  test('archive leaves All mail but not the Inbox; trash leaves both and shows in Trash alone', async () => {
    await call(app, 'mail:archive', { ids: await messageIds('Lunch') });
    await call(app, 'mail:trash', { ids: await messageIds('Invoice') });
    expect(await subjects({ view: 'inbox' })).toEqual({ total: 1, subjects: ['Party'] });
    expect(await subjects({ view: 'all' })).toEqual({ total: 3, subjects: ['Lunch', 'Mine', 'Party'] });
    const trash = (await call(app, 'mail:folders', {})).find((f) => f.place === 'trash');
    expect(trash).toBeDefined();
    expect(await subjects({ folderId: trash?.id ?? 0 })).toEqual({ total: 1, subjects: ['Invoice'] });
  });

  test('undo puts the trashed thread back in the Inbox', async () => {
    await call(app, 'mail:undo', { count: 1 });
    expect(await subjects({ view: 'inbox' })).toEqual({ total: 2, subjects: ['Invoice', 'Party'] });
  });

  test('a request without a view lists All mail, as before the Inbox', async () => {
    const r = await call(app, 'mail:threads', { folderId: null, offset: 0, limit: 100 });
    expect(r.total).toBe(4);
  });
});
