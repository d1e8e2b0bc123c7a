// Contract tests over real sockets (issue 3): every transcript of every provider is served by a local
// HTTP server and read through the whole path — request body, transport, framing, mapping — to the
// expected events. Retryable failures are retried with an instant sleep, so what is asserted is the
// outcome once retries are used up.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { type CorpusFixture, loadCorpus } from '../../../fixtures/sse/corpus.ts';
import { AiEvent } from '../protocol/events.ts';
import { streamModel } from './model-stream.ts';

let serving: CorpusFixture | undefined;
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  received.push({ url: req.url ?? '', headers: req.headers, body });
  if (!serving) return res.destroy();
  res.writeHead(serving.status, serving.headers);
  // A few writes, so the body really arrives in pieces.
  const b = serving.body;
  for (let i = 0; i < b.length; i += 97) res.write(b.subarray(i, i + 97));
  res.end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const key = 'sk-test-canary-0123abcd';
const kinds = {
  'openai-chat': 'openai',
  'openai-responses': 'openai-responses',
  anthropic: 'anthropic',
} as const;

async function run(kind: (typeof kinds)[keyof typeof kinds]) {
  const events: AiEvent[] = [];
  for await (const e of streamModel(
    { kind, baseUrl: base, key },
    { model: 'test-model', history: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    { sleep: async () => {} },
  )) {
    events.push(AiEvent.parse(e));
  }
  return events;
}

describe.each(Object.entries(kinds))('%s over a real socket', (provider, kind) => {
  test.each(loadCorpus(provider as keyof typeof kinds).map((f) => [f.name, f] as const))(
    '%s',
    async (_n, f) => {
      serving = f;
      received.length = 0;
      const events = await run(kind);
      expect(events).toHaveLength(f.expected.length);
      for (const [i, e] of events.entries()) expect(e).toMatchObject(f.expected[i] as object);
      const text = JSON.stringify(events);
      expect(text).not.toContain(key);
      for (const secret of f.mustNotContain) expect(text).not.toContain(secret);
      expect(received.length).toBeGreaterThan(0);
      // The key went only in the kind's own header, to the configured origin.
      const sent = received[0];
      if (kind === 'anthropic') expect(sent?.headers['x-api-key']).toBe(key);
      else expect(sent?.headers.authorization).toBe(`Bearer ${key}`);
      expect(sent?.body).not.toContain(key);
    },
  );
});

test('a 302 is never followed', async () => {
  serving = loadCorpus('openai-chat').find((f) => f.name === 'http-302');
  received.length = 0;
  const events = await run('openai');
  expect(events).toMatchObject([{ type: 'error', code: 'http_status', terminal: true }]);
  expect(received.map((r) => r.url)).toEqual(['/v1/chat/completions']);
});

test('Stop mid-stream ends with aborted, keeping what arrived', async () => {
  serving = loadCorpus('openai-chat').find((f) => f.name === 'text');
  const controller = new AbortController();
  const events: AiEvent[] = [];
  for await (const e of streamModel(
    { kind: 'openai', baseUrl: base, key: null },
    { model: 'm', history: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    { signal: controller.signal },
  )) {
    events.push(e);
    if (e.type === 'text_delta') controller.abort();
  }
  expect(events.at(-1)).toEqual({ type: 'aborted' });
  expect(events.some((e) => e.type === 'text_delta')).toBe(true);
});

test('the decision kinds do not chat', async () => {
  const events = [];
  for await (const e of streamModel(
    { kind: 'systemone', baseUrl: base, key: null },
    { model: 'm', history: [] },
  )) {
    events.push(e);
  }
  expect(events).toMatchObject([{ type: 'error', code: 'unsupported_capability', terminal: true }]);
});
