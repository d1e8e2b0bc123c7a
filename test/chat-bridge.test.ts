// The chat as the page sees it: `chat:send` over the bridge, events on the stream (each parsed with the
// contract), Stop through `run:cancel`, and what is stored afterwards. A real local server speaks
// OpenAI Chat from the hand-written transcripts.
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { loadCorpus } from '../fixtures/sse/corpus.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { serveScript, stalled } from './support/chat-script.ts';
import { tempDir } from './support/temp.ts';

const text = loadCorpus('openai-chat').find((f) => f.name === 'text');
let mode: 'answer' | 'stall' = 'answer';
const model = await serveScript(() => {
  const body = text?.body.toString() ?? '';
  if (mode === 'answer') return body;
  // Sends the first two events, then goes silent until the client gives up.
  return stalled(`${body.split('\n\n').slice(0, 2).join('\n\n')}\n\n`);
});
const { base } = model;

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(async () => {
  await model.close();
  await app.close();
});
await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: base });

function events(
  streamId: string,
  until: (e: StreamEvent) => boolean = (e) => e.type === 'chat_done' || e.type === 'chat_error',
) {
  const seen: StreamEvent[] = [];
  let resolve: (e: StreamEvent[]) => void;
  const done = new Promise<StreamEvent[]>((r) => {
    resolve = r;
  });
  const off = app.streams.listen((m) => {
    StreamMessage.parse(m);
    if (m.streamId !== streamId) return;
    seen.push(m.event);
    if (until(m.event)) {
      off();
      resolve(seen);
    }
  });
  return { seen, done };
}

describe('chat over the bridge', () => {
  test('streams the answer, then lists and replays the stored conversation with usage', async () => {
    mode = 'answer';
    const { streamId } = await call(app, 'chat:send', { model: 'local/m', prompt: 'Any invoices?' });
    const got = await events(streamId).done;
    expect(got[0]).toMatchObject({ type: 'chat_start' });
    expect(got.at(-1)).toEqual({ type: 'chat_done', stopReason: 'end_turn' });
    const answer = got.flatMap((e) => (e.type === 'chat_text' ? [e.text] : [])).join('');
    expect(answer.length).toBeGreaterThan(10);
    const [conversation] = await call(app, 'chat:list', {});
    expect(conversation).toMatchObject({ title: 'Any invoices?', model: 'local/m' });
    const history = await call(app, 'chat:history', { conversationId: conversation?.id ?? 0 });
    expect(history.turns).toEqual([
      {
        role: 'user',
        text: 'Any invoices?',
        blocks: [{ kind: 'text', text: 'Any invoices?' }],
        usage: null,
        ended: null,
      },
      {
        role: 'assistant',
        text: answer,
        blocks: [{ kind: 'text', text: answer }],
        usage: { inputTokens: 25, outputTokens: 12 },
        ended: null,
      },
    ]);
  });

  test('Stop ends the turn as cancelled and keeps what arrived', async () => {
    mode = 'stall';
    const { streamId } = await call(app, 'chat:send', { model: 'local/m', prompt: 'Slow one' });
    const stream = events(streamId, (e) => e.type === 'chat_error' || e.type === 'chat_done');
    await expect.poll(() => stream.seen.some((e) => e.type === 'chat_text')).toBe(true);
    expect(await call(app, 'run:cancel', { streamId })).toEqual({ cancelled: true });
    const got = await stream.done;
    expect(got.at(-1)).toMatchObject({ type: 'chat_error', code: 'cancelled' });
    const start = got[0] as { conversationId: number };
    const history = await call(app, 'chat:history', { conversationId: start.conversationId });
    // Read back later, the partial answer is there and says it was stopped.
    expect(history.turns.at(-1)).toMatchObject({
      role: 'assistant',
      ended: { outcome: 'stopped', code: 'cancelled', message: 'The request was stopped.' },
    });
    expect(history.turns.at(-1)?.text.length).toBeGreaterThan(0);
  });

  test('editing the service mid-answer ends the turn as stale, keeping what arrived', async () => {
    mode = 'stall';
    const { streamId } = await call(app, 'chat:send', { model: 'local/m', prompt: 'Edited under me' });
    const stream = events(streamId);
    await expect.poll(() => stream.seen.some((e) => e.type === 'chat_text')).toBe(true);
    const [service] = await call(app, 'service:list', {});
    await call(app, 'service:update', { id: service?.id ?? 0, baseUrl: base.replace('/v1', '/v2') });
    expect((await stream.done).at(-1)).toMatchObject({ type: 'chat_error', code: 'stale' });
    await call(app, 'service:update', { id: service?.id ?? 0, baseUrl: base });
  });

  test('an unknown service or a bad model reference ends with a sentence, not an exception', async () => {
    for (const model of ['ghost/m', 'nomodel']) {
      const { streamId } = await call(app, 'chat:send', { model, prompt: 'hi' });
      const got = await events(streamId).done;
      expect(got.at(-1)).toMatchObject({ type: 'chat_error' });
      expect((got.at(-1) as { message: string }).message).toMatch(/service|model/);
    }
    expect(await callRaw(app, 'chat:history', { conversationId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
