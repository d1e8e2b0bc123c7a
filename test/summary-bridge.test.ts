// "Summarize thread" over the bridge (issue 7): the page names a thread; the answer comes back checked, each
// citation tied to its message; the same thread version is answered from the cache; a thread that grew is
// asked again; an answer citing what the thread does not hold is an error, not a summary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call } from './support/bridge.ts';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { eml, tempDir } from './support/temp.ts';

// A model that cites the sources it was given.
let model: CitingModel;
const requests = () => model.received.length;
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const mail = tempDir();
let threadId = 0;

function result(streamId: string): Promise<StreamEvent> {
  return new Promise((resolve) => {
    const off = app.streams.listen((m) => {
      StreamMessage.parse(m);
      if (m.streamId === streamId && (m.event.type === 'summary_done' || m.event.type === 'error')) {
        off();
        resolve(m.event);
      }
    });
  });
}

beforeAll(async () => {
  model = await startCitingModel();
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
  writeFileSync(join(mail, '1.eml'), eml({ id: '<q1@x>', subject: 'Launch', body: 'Launch on the 5th?' }));
  writeFileSync(
    join(mail, '2.eml'),
    eml({
      id: '<q2@x>',
      subject: 'Re: Launch',
      inReplyTo: '<q1@x>',
      date: 'Mon, 30 Nov 2026 11:00:00 +0000',
      body: 'Yes, the 5th.',
    }),
  );
  await app.importFiles([mail], () => {}).done;
  threadId = app.db
    .prepare("SELECT thread_id FROM messages WHERE message_id = '<q1@x>'")
    .pluck()
    .get() as number;
});
afterAll(async () => {
  await app.close();
  await model?.close();
});

describe('summary:thread', () => {
  test('a checked summary whose citations open their messages', async () => {
    const { streamId } = await call(app, 'summary:thread', { threadId, model: 'local/m' });
    const done = await result(streamId);
    expect(done.type).toBe('summary_done');
    if (done.type !== 'summary_done') return;
    const ids = app.db
      .prepare('SELECT id FROM messages WHERE thread_id = ? ORDER BY id')
      .pluck()
      .all(threadId) as number[];
    expect(done.result).toMatchObject({ cited: true, cached: false });
    expect(done.result.citations.map((c) => c.messageId)).toEqual(ids);
    expect(done.result.answer).toContain(`[m${ids[0]}]`);
  });

  test('the same thread version comes from the cache; a grown thread is asked again', async () => {
    const before = requests();
    const again = await result((await call(app, 'summary:thread', { threadId, model: 'local/m' })).streamId);
    expect(again).toMatchObject({ type: 'summary_done', result: { cached: true } });
    expect(requests()).toBe(before);
    writeFileSync(
      join(mail, '3.eml'),
      eml({
        id: '<q3@x>',
        subject: 'Re: Launch',
        inReplyTo: '<q2@x>',
        date: 'Mon, 30 Nov 2026 12:00:00 +0000',
        body: 'Confirmed.',
      }),
    );
    await app.importFiles([mail], () => {}).done;
    const grown = await result((await call(app, 'summary:thread', { threadId, model: 'local/m' })).streamId);
    expect(grown).toMatchObject({ type: 'summary_done', result: { cached: false } });
    expect(requests()).toBe(before + 1);
  });

  test('an answer citing what the thread does not hold is an error, not a summary', async () => {
    model.cite = () => ['m999999'];
    const failed = await result(
      (await call(app, 'summary:thread', { threadId, model: 'local/m', refresh: true })).streamId,
    );
    model.cite = (ids) => ids;
    expect(failed).toMatchObject({
      type: 'error',
      error: { code: 'bad_answer', message: expect.stringMatching(/m999999/) },
    });
  });
});
