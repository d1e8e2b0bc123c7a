// "Ask about this thread + these documents", "Ask about selection" and the document page a citation opens,
// over the bridge (issue 7), against a real local model server that records what it was sent. What it proves
// (DESIGN §10): the page names messages and documents by id and Skimmer loads their text; the document chunks
// reach the model inside the untrusted boundary; a document citation comes back with its document and page;
// a chunk id the model invents is bad_answer; a request naming nothing is refused; a remote service needs
// consent first; `documents:read` returns the cited chunk with its page.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { channels, type StreamEvent, StreamMessage } from '../shared/contract.ts';
import { call, callRaw } from './support/bridge.ts';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { makePdf } from './support/documents.ts';
import { eml, tempDir } from './support/temp.ts';

// The model cites every source it was given, unless a test says otherwise; it records what it was sent.
let model: CitingModel;
const seen = () => model.received;

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const files = tempDir();
let threadId = 0;
let messageIds: number[] = [];
let otherId = 0;
let handbook = 0;
let travel = 0;

function final(streamId: string): Promise<StreamEvent> {
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
  await call(app, 'service:add', { name: 'cloud', kind: 'openai', baseUrl: 'https://api.example.com/v1' });
  const mail = tempDir();
  writeFileSync(join(mail, '1.eml'), eml({ id: '<a1@x>', subject: 'Trip', body: 'Can I claim the taxi?' }));
  writeFileSync(
    join(mail, '2.eml'),
    eml({
      id: '<a2@x>',
      subject: 'Re: Trip',
      inReplyTo: '<a1@x>',
      date: 'Mon, 30 Nov 2026 11:00:00 +0000',
      body: 'Check the handbook.',
    }),
  );
  writeFileSync(join(mail, '3.eml'), eml({ id: '<b1@x>', subject: 'Lunch', body: 'Pizza on Friday.' }));
  await app.importFiles([mail], () => {}).done;
  const id = (messageId: string) =>
    app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
  messageIds = [id('<a1@x>'), id('<a2@x>')];
  otherId = id('<b1@x>');
  threadId = app.db
    .prepare('SELECT thread_id FROM messages WHERE id = ?')
    .pluck()
    .get(messageIds[0]) as number;
  writeFileSync(
    join(files, 'handbook.pdf'),
    await makePdf(['Welcome to the company.', 'Taxi fares are claimed as travel expenses.']),
  );
  writeFileSync(join(files, 'travel.pdf'), await makePdf(['Book trains over taxis when you can.']));
  const imported = await call(app, 'documents:import', {
    paths: [join(files, 'handbook.pdf'), join(files, 'travel.pdf')],
  });
  [handbook, travel] = imported.imported.map((d) => d.id) as [number, number];
});
afterAll(async () => {
  await app.close();
  await model?.close();
});

describe('summary:ask', () => {
  test('a thread and two documents: the chunks go inside the untrusted boundary and come back with their pages', async () => {
    const { streamId } = await call(app, 'summary:ask', {
      model: 'local/m',
      question: 'May I claim a taxi?',
      threadId,
      documentIds: [handbook, travel],
    });
    const done = await final(streamId);
    expect(done.type).toBe('summary_done');
    if (done.type !== 'summary_done') return;
    const sent = seen().at(-1)?.system ?? '';
    // The page that matches the question, not the welcome page, sits inside its untrusted block.
    expect(sent).toMatch(
      new RegExp(
        `<untrusted_email source="source:d${handbook}c2" suspect="false">[\\s\\S]*Location: page 2[\\s\\S]*Taxi fares are claimed[\\s\\S]*?</untrusted_email>`,
      ),
    );
    expect(sent).not.toContain('Welcome to the company.');
    expect(sent).toContain(`source="source:d${travel}c1"`);
    expect(sent).toContain(`source="source:m${messageIds[0]}"`);
    expect(sent).not.toContain('Pizza');
    expect(seen().at(-1)?.question).toBe('May I claim a taxi?');
    expect(done.result.citations).toEqual([
      {
        id: `m${messageIds[0]}`,
        title: expect.stringContaining('Trip'),
        messageId: messageIds[0],
        documentId: null,
        location: null,
      },
      {
        id: `m${messageIds[1]}`,
        title: expect.stringContaining('Re: Trip'),
        messageId: messageIds[1],
        documentId: null,
        location: null,
      },
      {
        id: `d${handbook}c2`,
        title: 'handbook.pdf, page 2',
        messageId: null,
        documentId: handbook,
        location: 'page 2',
      },
      {
        id: `d${travel}c1`,
        title: 'travel.pdf, page 1',
        messageId: null,
        documentId: travel,
        location: 'page 1',
      },
    ]);
    expect(done.result).toMatchObject({ cited: true, cached: false, note: null });
  });

  test('a selection of messages from two threads sends exactly those messages', async () => {
    const { streamId } = await call(app, 'summary:ask', {
      model: 'local/m',
      question: 'What is planned?',
      messageIds: [otherId, messageIds[1] as number],
    });
    const done = await final(streamId);
    expect(done).toMatchObject({ type: 'summary_done' });
    const ids = [...(seen().at(-1)?.system ?? '').matchAll(/source="source:([^"]+)"/g)].map((m) => m[1]);
    expect(ids.sort()).toEqual([`m${messageIds[1]}`, `m${otherId}`].sort());
  });

  test('a document chunk id the model invents is bad_answer, not an answer', async () => {
    model.cite = () => [`d${handbook}c9`];
    const { streamId } = await call(app, 'summary:ask', {
      model: 'local/m',
      question: 'Taxi?',
      documentIds: [handbook],
    });
    const failed = await final(streamId);
    model.cite = (ids) => ids;
    expect(failed).toMatchObject({
      type: 'error',
      error: { code: 'bad_answer', message: expect.stringContaining(`d${handbook}c9`) },
    });
  });

  test('Stop (run:cancel) ends the wait as cancelled, with no answer', async () => {
    model.hold = true;
    const before = seen().length;
    const { streamId } = await call(app, 'summary:ask', {
      model: 'local/m',
      question: 'Taxi?',
      threadId,
      documentIds: [handbook],
    });
    const ended = final(streamId);
    await expect.poll(() => seen().length).toBe(before + 1);
    expect(await call(app, 'run:cancel', { streamId })).toEqual({ cancelled: true });
    model.hold = false;
    model.release();
    expect(await ended).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
  });

  test('a request naming no thread, message or document is refused before anything is sent', async () => {
    const before = seen().length;
    const reply = await callRaw(app, 'summary:ask', { model: 'local/m', question: 'Anything?' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(
      await callRaw(app, 'summary:ask', { model: 'local/m', question: 'x', documentIds: [999] }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(seen().length).toBe(before);
  });

  test('a service off this computer needs consent first, for documents too', async () => {
    const before = seen().length;
    const { streamId } = await call(app, 'summary:ask', {
      model: 'cloud/gpt',
      question: 'Taxi?',
      documentIds: [handbook],
    });
    expect(await final(streamId)).toMatchObject({
      type: 'error',
      error: { code: 'forbidden', message: expect.stringContaining('api.example.com') },
    });
    expect(seen().length).toBe(before);
  });
});

describe('documents:read', () => {
  test('returns the document as text with the cited chunk and its page', async () => {
    const page = await call(app, 'documents:read', { documentId: handbook, chunkId: `d${handbook}c2` });
    channels['documents:read'].response.parse(page);
    expect(page).toEqual({
      id: handbook,
      name: 'handbook.pdf',
      kind: 'pdf',
      chunks: [
        { id: `d${handbook}c1`, location: 'page 1', text: 'Welcome to the company.' },
        { id: `d${handbook}c2`, location: 'page 2', text: 'Taxi fares are claimed as travel expenses.' },
      ],
      note: null,
    });
  });

  test('a chunk of another document is not_found', async () => {
    expect(
      await callRaw(app, 'documents:read', { documentId: handbook, chunkId: `d${travel}c1` }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
