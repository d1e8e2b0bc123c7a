import { describe, expect, test } from 'vitest';
import { describeProviderContract } from '../../../test/support/provider-contract.ts';
import { replay } from '../../../test/support/sse-replay.ts';
import { classifyChatError, createChatMapper } from './openai-chat.ts';

describeProviderContract('openai-chat', () => createChatMapper(), classifyChatError);

describe('OpenAI Chat mapper choices', () => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  test('a call announced with an empty id is named by its index, since a stored call needs an id', () => {
    const body = Buffer.from(
      chunk({ tool_calls: [{ index: 0, id: '', function: { name: 'list_labels', arguments: '{}' } }] }) +
        chunk({}, 'tool_calls'),
    );
    expect(replay(body, createChatMapper())).toContainEqual({
      type: 'tool_call_complete',
      callId: 'call_0',
      name: 'list_labels',
      input: {},
    });
  });
});
