// The import as the renderer sees it: `mail:import` returns a streamId, progress events follow, then
// exactly one final event; every event matches the contract; `run:cancel` stops it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

function collect(streamId: string): Promise<StreamEvent[]> {
  return new Promise((resolve) => {
    const events: StreamEvent[] = [];
    const off = app.streams.listen((m) => {
      StreamMessage.parse(m);
      if (m.streamId !== streamId) return;
      events.push(m.event);
      if (m.event.type !== 'import_progress') {
        off();
        resolve(events);
      }
    });
  });
}

describe('mail:import', () => {
  test('imports the demo mailbox with progress and one final summary', async () => {
    const { streamId } = await call(app, 'mail:import', { demo: true });
    const events = await collect(streamId);
    const done = events.at(-1);
    expect(done?.type).toBe('import_done');
    if (done?.type !== 'import_done') return;
    expect(done.cancelled).toBe(false);
    expect(done.summary.imported).toBeGreaterThanOrEqual(50);
    expect(done.summary.failed).toEqual([]);
    const info = await call(app, 'app:info', {});
    expect(info.messages).toBe(done.summary.imported);
    const folders = await call(app, 'mail:folders', {});
    expect(folders.map((f) => f.name)).toContain('demo');
    const page = await call(app, 'mail:threads', { folderId: null, offset: 0, limit: 100 });
    expect(page.total).toBeGreaterThanOrEqual(15);
    expect(page.threads.some((t) => t.count >= 5)).toBe(true);
    const thread = await call(app, 'mail:thread', { threadId: page.threads[0]?.id ?? 0 });
    expect(thread.messages.length).toBeGreaterThan(0);
  });

  test('stops on run:cancel, keeps what was read and ends with cancelled', async () => {
    const dir = tempDir();
    for (let i = 0; i < 3000; i++)
      writeFileSync(join(dir, `${i}.eml`), eml({ id: `<c${i}@x>`, subject: `n${i}` }));
    const { streamId } = await call(app, 'mail:import', { paths: [dir] });
    const events = collect(streamId);
    expect(await call(app, 'run:cancel', { streamId })).toEqual({ cancelled: true });
    const done = (await events).at(-1);
    expect(done).toMatchObject({ type: 'import_done', cancelled: true });
    if (done?.type !== 'import_done') return;
    expect(done.summary.imported).toBeLessThan(3000);
    expect(await call(app, 'run:cancel', { streamId })).toEqual({ cancelled: false });
  });

  test('reports a path that does not exist as a failure, not an error', async () => {
    const { streamId } = await call(app, 'mail:import', { paths: ['/nonexistent/skimmer/mail'] });
    const done = (await collect(streamId)).at(-1);
    expect(done).toMatchObject({
      type: 'import_done',
      summary: {
        imported: 0,
        failed: [{ source: '/nonexistent/skimmer/mail', reason: 'No such file or folder.' }],
      },
    });
  });
});
