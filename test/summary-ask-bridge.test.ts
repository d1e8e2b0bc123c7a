// "Ask about this thread + these documents", "Ask about selection" and the document page a citation opens,
// over the bridge (issue 7), against a real local model server that records what it was sent. What it proves
// (DESIGN §10): the page names messages and documents by id and Skimmer loads their text; the document chunks
// reach the model inside the untrusted boundary; a document citation comes back with its document and page;
// a chunk id the model invents is bad_answer; a request naming nothing is refused; a remote service needs
// consent first; `documents:read` returns the cited chunk with its page. Answers are cached per model,
// question, messages (a thread's as it is now) and documents: the same ask again sends nothing to the model, a
// change to any of these asks again, `refresh` asks again and replaces, and an error is never cached.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { channels, type Request, type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { makePdf } from './support/documents.ts';
import { eml, tempDir } from './support/temp.ts';

// The model cites every source it was given, unless a test says otherwise; it records what it was sent.
let model: CitingModel;
const seen = () => model.received;

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const files = tempDir();
const later = tempDir(); // mail imported by the cache tests
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

// Asks and waits for the answer or the error.
async function ask(request: Request<'summary:ask'>): Promise<StreamEvent> {
  const { streamId } = await call(app, 'summary:ask', request);
  return final(streamId);
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

describe('summary:ask answers are cached', () => {
  const taxi = { model: 'local/m', question: 'Who pays the taxi?' };

  test('the same ask again is answered from the cache, with no request to the model', async () => {
    const first = await ask({ ...taxi, threadId, documentIds: [handbook] });
    expect(first).toMatchObject({ type: 'summary_done', result: { cached: false } });
    const before = seen().length;
    const again = await ask({ ...taxi, threadId, documentIds: [handbook] });
    expect(again.type).toBe('summary_done');
    if (first.type !== 'summary_done' || again.type !== 'summary_done') return;
    expect(again.result).toEqual({ ...first.result, cached: true });
    // The same sources named another way: the thread's messages, in another order, documents twice; the
    // question as the schema trims it.
    expect(
      await ask({
        model: 'local/m',
        question: '  Who pays the taxi? ',
        messageIds: [messageIds[1] as number, messageIds[0] as number],
        documentIds: [handbook, handbook],
      }),
    ).toMatchObject({ type: 'summary_done', result: { cached: true } });
    expect(seen().length).toBe(before);
  });

  test('a different question, model, selection or set of documents asks the model again', async () => {
    await ask({ ...taxi, messageIds: [otherId] });
    const asks: Request<'summary:ask'>[] = [
      { ...taxi, question: 'Who pays the train?', messageIds: [otherId] },
      { ...taxi, model: 'local/other', messageIds: [otherId] },
      { ...taxi, messageIds: [otherId, messageIds[0] as number] },
      { ...taxi, messageIds: [otherId], documentIds: [travel] },
    ];
    for (const request of asks) {
      const before = seen().length;
      expect(await ask(request)).toMatchObject({ type: 'summary_done', result: { cached: false } });
      expect(seen().length).toBe(before + 1);
    }
  });

  test('a thread that got a new message is asked again, and the answer cites the new message', async () => {
    writeFileSync(join(later, 'c1.eml'), eml({ id: '<c1@x>', subject: 'Budget', body: 'Is it approved?' }));
    await app.importFiles([later], () => {}).done;
    const budget = app.db.prepare("SELECT thread_id FROM messages WHERE message_id = '<c1@x>'").pluck().get();
    const budgetAsk = { model: 'local/m', question: 'Is the budget approved?', threadId: budget as number };
    expect(await ask(budgetAsk)).toMatchObject({ type: 'summary_done', result: { cached: false } });
    expect(await ask(budgetAsk)).toMatchObject({ type: 'summary_done', result: { cached: true } });

    writeFileSync(
      join(later, 'c2.eml'),
      eml({
        id: '<c2@x>',
        subject: 'Re: Budget',
        inReplyTo: '<c1@x>',
        date: 'Mon, 30 Nov 2026 11:00:00 +0000',
        body: 'Yes, approved.',
      }),
    );
    await app.importFiles([later], () => {}).done;
    const reply = app.db.prepare("SELECT id, thread_id FROM messages WHERE message_id = '<c2@x>'").get();
    expect(reply).toMatchObject({ thread_id: budget });
    const before = seen().length;
    const grown = await ask(budgetAsk);
    expect(seen().length).toBe(before + 1);
    expect(grown).toMatchObject({ type: 'summary_done', result: { cached: false } });
    if (grown.type !== 'summary_done') return;
    expect(grown.result.citations.map((c) => c.messageId)).toContain((reply as { id: number }).id);
  });

  test('the stored summary comes back by summary:stored until the thread grows, without asking the model', async () => {
    writeFileSync(
      join(later, 'd1.eml'),
      eml({ id: '<d1@x>', subject: 'Offsite', body: 'Where do we meet?' }),
    );
    await app.importFiles([later], () => {}).done;
    const offsite = app.db
      .prepare("SELECT thread_id FROM messages WHERE message_id = '<d1@x>'")
      .pluck()
      .get() as number;
    expect(await call(app, 'summary:stored', { threadId: offsite })).toBeNull();
    const { streamId } = await call(app, 'summary:thread', { threadId: offsite, model: 'local/m' });
    const done = await final(streamId);
    expect(done).toMatchObject({ type: 'summary_done', result: { cached: false } });
    const before = seen().length;
    const stored = await call(app, 'summary:stored', { threadId: offsite });
    expect(stored?.model).toBe('local/m');
    expect(stored?.result.answer).toBe(done.type === 'summary_done' ? done.result.answer : '?');
    expect(stored?.result.cached).toBe(true);
    expect(seen().length).toBe(before);

    writeFileSync(
      join(later, 'd2.eml'),
      eml({
        id: '<d2@x>',
        subject: 'Re: Offsite',
        inReplyTo: '<d1@x>',
        date: 'Mon, 30 Nov 2026 12:00:00 +0000',
        body: 'At the lake.',
      }),
    );
    await app.importFiles([later], () => {}).done;
    expect(await call(app, 'summary:stored', { threadId: offsite })).toBeNull();
    expect((await callRaw(app, 'summary:stored', { threadId: 999_999 })).ok).toBe(false);
  });

  test('refresh asks again past the cache and replaces the stored answer', async () => {
    const request = { ...taxi, documentIds: [handbook, travel] };
    const first = await ask(request);
    expect(first).toMatchObject({ type: 'summary_done', result: { cached: false } });
    const before = seen().length;
    // The model now cites only the first source it was given: a different answer from the first.
    model.cite = (ids) => ids.slice(0, 1);
    const fresh = await ask({ ...request, refresh: true });
    model.cite = (ids) => ids;
    expect(seen().length).toBe(before + 1);
    expect(fresh).toMatchObject({ type: 'summary_done', result: { cached: false } });
    if (first.type !== 'summary_done' || fresh.type !== 'summary_done') return;
    expect(fresh.result.citations).toHaveLength(1);
    expect(fresh.result.answer).not.toBe(first.result.answer);
    expect(await ask(request)).toEqual({ type: 'summary_done', result: { ...fresh.result, cached: true } });
    expect(seen().length).toBe(before + 1);
  });

  test('an error is not cached: the same ask after it goes to the model', async () => {
    const request = { ...taxi, question: 'Which receipts count?', documentIds: [handbook, travel] };
    model.cite = () => [`d${handbook}c9`];
    const failed = await ask(request);
    model.cite = (ids) => ids;
    expect(failed).toMatchObject({ type: 'error', error: { code: 'bad_answer' } });
    const before = seen().length;
    expect(await ask(request)).toMatchObject({ type: 'summary_done', result: { cached: false } });
    expect(seen().length).toBe(before + 1);
    expect(await ask(request)).toMatchObject({ type: 'summary_done', result: { cached: true } });
  });

  test('a stopped answer is not cached', async () => {
    const request = { ...taxi, question: 'Is a tip refunded?', documentIds: [travel] };
    model.hold = true;
    const { streamId } = await call(app, 'summary:ask', request);
    const ended = final(streamId);
    await expect.poll(() => model.waiting()).toBe(1);
    await call(app, 'run:cancel', { streamId });
    model.hold = false;
    model.release();
    expect(await ended).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    const before = seen().length;
    expect(await ask(request)).toMatchObject({ type: 'summary_done', result: { cached: false } });
    expect(seen().length).toBe(before + 1);
  });
});
