import { describe, expect, test } from 'vitest';
import { describeProviderContract } from '../../../test/support/provider-contract.ts';
import { replay } from '../../../test/support/sse-replay.ts';
import { classifyAnthropicError, createAnthropicMapper } from './anthropic.ts';

describeProviderContract('anthropic', () => createAnthropicMapper(), classifyAnthropicError);

// Choices the corpus does not pin (fixtures/sse/README.md, ambiguities 6 and 7).
describe('Anthropic mapper choices', () => {
  const body = (...payloads: object[]): Buffer =>
    Buffer.from(
      payloads.map((p) => `event: ${(p as { type: string }).type}\ndata: ${JSON.stringify(p)}\n\n`).join(''),
    );
  const start = (usage: object) => ({ type: 'message_start', message: { content: [], usage } });

  test('cache counts are part of the input total', () => {
    const events = replay(
      body(
        start({ input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 }),
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
        { type: 'message_stop' },
      ),
      createAnthropicMapper(),
    );
    expect(events.at(-2)).toEqual({ type: 'usage', inputTokens: 1110, outputTokens: 3 });
  });

  test('an error before message_start emits no message_start, and its detail is redacted', () => {
    const key = 'my-private-key-0123456789';
    const events = replay(
      body({ type: 'error', error: { type: 'overloaded_error', message: `Overloaded for ${key}` } }),
      createAnthropicMapper([key]),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'unavailable', terminal: true })]);
    expect(JSON.stringify(events)).not.toContain(key);
  });

  test('an error event ends the stream even when its payload cannot be read', () => {
    const events = replay(
      Buffer.from(`${body(start({ input_tokens: 1 })).toString()}event: error\ndata: {"type":"err\n\n`),
      createAnthropicMapper(),
    );
    expect(events).toMatchObject([
      { type: 'message_start' },
      { type: 'error', code: 'unavailable', terminal: true },
    ]);
  });

  test('a top-level details.error_code is read too', () => {
    const quota = JSON.stringify({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'limit' },
      details: { error_code: 'enforced_spend_limit_reached' },
    });
    expect(classifyAnthropicError(429, new Headers(), quota).code).toBe('quota_exceeded');
    expect(classifyAnthropicError(502, new Headers(), 'not json').code).toBe('unavailable');
  });

  test('JSON that is not an object is a notice, a body without message_stop still fails, and nothing follows message_stop', () => {
    expect(replay(Buffer.from('event: message_start\ndata: null\n\n'), createAnthropicMapper())).toEqual([
      { type: 'message_start' },
      expect.objectContaining({ type: 'error', code: 'malformed_stream', terminal: false }),
      expect.objectContaining({ type: 'error', code: 'malformed_stream', terminal: true }),
    ]);
    const events = replay(
      body(start({ input_tokens: 1 }), { type: 'message_stop' }, { type: 'error', error: {} }),
      createAnthropicMapper(),
    );
    expect(events.map((e) => e.type)).toEqual(['message_start', 'usage', 'message_stop']);
  });
});
