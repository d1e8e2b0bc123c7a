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

  test('a data payload that is JSON but not an object is a notice, and a body that never completes still fails', () => {
    const events = replay(Buffer.from('event: response.created\ndata: null\n\n'), createResponsesMapper());
    expect(events).toMatchObject([
      { type: 'message_start' },
      { type: 'error', code: 'malformed_stream', terminal: false },
      { type: 'error', code: 'malformed_stream', terminal: true },
    ]);
  });

  test('a function_call item that ends without having been added is dropped with a notice', () => {
    const events = replay(
      frames(
        { type: 'response.created', response: {} },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: { type: 'function_call', call_id: 'call_a1', name: 'search_mail', arguments: '{}' },
        },
        { type: 'response.completed', response: {} },
      ),
      createResponsesMapper(),
    );
    expect(events).toMatchObject([
      { type: 'message_start' },
      { type: 'error', code: 'malformed_stream', terminal: false },
      { type: 'message_stop', stopReason: 'end_turn' },
    ]);
  });
});
