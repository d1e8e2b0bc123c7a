import { describe, expect, test } from 'vitest';
import { describeProviderContract } from '../../../test/support/provider-contract.ts';
import { replay } from '../../../test/support/sse-replay.ts';
import { classifyResponsesError, createResponsesMapper } from './openai-responses.ts';

describeProviderContract('openai-responses', () => createResponsesMapper(), classifyResponsesError);

describe('OpenAI Responses edge cases', () => {
  const frames = (...events: object[]) =>
    Buffer.from(
      events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
    );

  test('a failure as the very first event starts no message, and its detail is redacted', () => {
    const key = 'sk-test-canary-0123abcd';
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
