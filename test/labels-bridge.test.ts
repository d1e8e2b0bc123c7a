// The folder list's Labels section over the bridge (issue 29 §4), on a real SQLite file with imported mail: labels
// put on through mail:bulk show with their unread and total counts, a colour picked is kept for a new app on the
// same data folder, and a colour outside the palette or a label that is gone is refused in a sentence.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call, callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const dataDir = tempDir();
let app = createApp({ dataDir, mode: 'browser' });
afterAll(() => app.close());

const threadOf = (name: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE message_id = ?').pluck().get(`<${name}@x>`) as number;

beforeAll(async () => {
  const mail = tempDir();
  for (const name of ['one', 'two', 'three'])
    writeFileSync(join(mail, `${name}.eml`), eml({ id: `<${name}@x>`, subject: `About ${name}` }));
  await app.importFiles([mail], () => {}).done;
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [threadOf('one'), threadOf('two')] },
    action: { kind: 'label', add: ['Work'], remove: [] },
  });
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [threadOf('three')] },
    action: { kind: 'label', add: ['later'], remove: [] },
  });
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [threadOf('one')] },
    action: { kind: 'read', read: true },
  });
});

test('each label shows its unread and total messages', async () => {
  expect((await call(app, 'label:overview', {})).map((l) => [l.name, l.unread, l.total, l.colour])).toEqual([
    ['later', 1, 1, null],
    ['Work', 1, 2, null],
  ]);
});

test('a colour picked is kept after the app starts again, and can be taken away', async () => {
  const work = (await call(app, 'label:overview', {})).find((l) => l.name === 'Work');
  expect(await call(app, 'label:setColour', { id: work?.id ?? 0, colour: 'purple' })).toEqual({ ok: true });
  app.close();
  app = createApp({ dataDir, mode: 'browser' });
  expect((await call(app, 'label:overview', {})).find((l) => l.name === 'Work')?.colour).toBe('purple');
  await call(app, 'label:setColour', { id: work?.id ?? 0, colour: null });
  expect((await call(app, 'label:overview', {})).find((l) => l.name === 'Work')?.colour).toBeNull();
});

test('a colour outside the palette and a label that is gone are refused', async () => {
  expect(await callRaw(app, 'label:setColour', { id: 1, colour: '#f00' })).toMatchObject({
    ok: false,
    error: { code: 'invalid_request' },
  });
  expect(await callRaw(app, 'label:setColour', { id: 9999, colour: 'red' })).toMatchObject({
    ok: false,
    error: { code: 'not_found', message: 'That label no longer exists.' },
  });
});

test('each conversation asked comes back with the labels its messages carry', async () => {
  expect(await call(app, 'label:ofThreads', { threads: [threadOf('one'), threadOf('three'), 9999] })).toEqual(
    [
      { threadId: threadOf('one'), labels: [{ name: 'Work', colour: null }] },
      { threadId: threadOf('three'), labels: [{ name: 'later', colour: null }] },
      { threadId: 9999, labels: [] },
    ],
  );
});
