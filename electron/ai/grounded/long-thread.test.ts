// A thread over the bounds, summarised in parts against a real local server (issue 7): 60 messages (one of
// them over 16 KiB) become parts within the bounds; the combined summary's citations all name messages of
// the thread, and one that names anything else is refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groundedBounds } from './bounds.ts';
import { cutText, partsOf, summarizeThread, threadSources } from './long-thread.ts';

type Body = { messages: { role: string; content: string }[] };
let server: Server;
let base = '';
const requests: Body[] = [];
let combineCites: (ids: string[]) => string[] = (ids) => ids.slice(0, 3);

// Answers like a model that follows the instructions: a part summary cites its first two sources; the
// combined summary cites message ids named in the question.
function answerFor(body: Body): string {
  const system = body.messages[0]?.content ?? '';
  const user = body.messages[1]?.content ?? '';
  const sources = [...system.matchAll(/source="source:([A-Za-z0-9_-]+)"/g)].map((m) => m[1] as string);
  const isCombine = sources.every((s) => s.startsWith('part'));
  const cite = isCombine
    ? combineCites([...user.matchAll(/\[(m[0-9]+)\]/g)].map((m) => m[1] as string))
    : sources.slice(0, 2);
  return JSON.stringify({ answer: cite.map((c) => `Point [${c}].`).join(' '), citations: cite });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    const body = JSON.parse(raw) as Body;
    requests.push(body);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: answerFor(body) } }] }),
      );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const messages = Array.from({ length: 60 }, (_, i) => ({
  id: `m${i + 1}`,
  title: `Message ${i + 1}`,
  text:
    i === 4
      ? `Long report.\n${'Line of the long report.\n'.repeat(1200)}`
      : `Message ${i + 1} says ${'words '.repeat(150)}`,
}));
const connection = () => ({ kind: 'openai' as const, baseUrl: base, key: null });

describe('long threads', () => {
  test('cuts a long message into pieces within the bound, keeping its id', () => {
    const sources = threadSources(messages);
    const pieces = sources.filter((s) => s.id === 'm5' || s.id.startsWith('m5-'));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((p) => p.text).join('')).toBe(messages[4]?.text);
    for (const s of sources)
      expect(Buffer.byteLength(s.text)).toBeLessThanOrEqual(groundedBounds.sourceBytes);
    expect(cutText('é'.repeat(10), 5).every((p) => Buffer.byteLength(p) <= 5)).toBe(true);
  });

  test('parts stay within the bounds', () => {
    for (const part of partsOf(threadSources(messages))) {
      expect(part.length).toBeLessThanOrEqual(groundedBounds.maxSources);
      expect(part.reduce((n, s) => n + Buffer.byteLength(s.text), 0)).toBeLessThanOrEqual(
        groundedBounds.allSourcesBytes,
      );
    }
  });

  test('summarises 60 messages in parts, every citation naming one of them', async () => {
    const result = await summarizeThread(connection(), 'm', messages, { fetch });
    expect(result.parts).toBeGreaterThan(1);
    expect(requests.length).toBe(result.parts + 1);
    expect(result.cited).toBe(true);
    const ids = new Set(messages.map((m) => m.id));
    for (const c of result.citations) expect(ids.has(c)).toBe(true);
    expect(result.sources.map((s) => s.title)).toEqual(result.citations.map((c) => `Message ${c.slice(1)}`));
  });

  test('a combined summary that cites anything the parts did not is refused', async () => {
    combineCites = () => ['m59', 'part1'];
    await expect(summarizeThread(connection(), 'm', messages, { fetch })).rejects.toMatchObject({
      code: 'bad_answer',
    });
    combineCites = (ids) => ids.slice(0, 3);
  });
});
