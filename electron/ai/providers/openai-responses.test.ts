import { describe, expect, test } from 'vitest';
import { loadCorpus } from '../../../fixtures/sse/corpus.ts';
import { chunkSizes, replay } from '../../../test/support/sse-replay.ts';
import { AiEvent } from '../protocol/events.ts';
import { classifyResponsesError, createResponsesMapper } from './openai-responses.ts';

const corpus = loadCorpus('openai-responses');
const streams = corpus.filter((f) => f.status === 200);
const httpErrors = corpus.filter((f) => f.status !== 200);

describe('OpenAI Responses stream mapping', () => {
  test.each(streams.map((f) => [f.name, f] as const))(
    '%s maps to its expected events at every split',
    (_n, f) => {
      for (const size of chunkSizes(f.body.length)) {
        const events = replay(f.body, createResponsesMapper(), size);
        for (const e of events) AiEvent.parse(e);
        expect(events).toHaveLength(f.expected.length);
        for (const [i, e] of events.entries()) expect(e).toMatchObject(f.expected[i] as object);
        for (const secret of f.mustNotContain) expect(JSON.stringify(events)).not.toContain(secret);
      }
    },
  );
});

describe('OpenAI Responses HTTP errors', () => {
  test.each(httpErrors.map((f) => [f.name, f] as const))('%s is classified by status and body', (_n, f) => {
    const { code } = classifyResponsesError(f.status, new Headers(f.headers), f.body.toString());
    expect(code).toBe((f.expected[0] as { code: string }).code);
  });
});

describe('OpenAI Responses edge cases', () => {
  const frames = (...events: object[]) =>
    Buffer.from(
      events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
    );

  test('a failure as the very first event starts no message, and its detail is redacted', () => {
    const key = 'sk-test-canary-0123456789abcdef0123456789abcdef';
    const body = frames({
      type: 'error',
      code: 'rate_limit_exceeded',
      message: `bad key ${key}`,
      param: null,
    });
    const events = replay(body, createResponsesMapper([key]));
    expect(events).toMatchObject([{ type: 'error', code: 'rate_limited', terminal: true }]);
    expect(JSON.stringify(events)).not.toContain(key);
  });

  test('a data payload that is JSON but not an object is unreadable', () => {
    const events = replay(Buffer.from('event: response.created\ndata: null\n\n'), createResponsesMapper());
    expect(events).toMatchObject([{ type: 'error', code: 'malformed_stream', terminal: true }]);
  });
});
