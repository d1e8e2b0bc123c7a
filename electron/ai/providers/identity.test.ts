// DESIGN §6: two logically identical answers from different providers produce identical event
// sequences. The real mappers' outputs are compared with each other (the corpus test compares the
// hand-written expectations; this compares what the code does).
import { describe, expect, test } from 'vitest';
import { identicalAcrossProviders, loadCorpus } from '../../../fixtures/sse/corpus.ts';
import { replay } from '../../../test/support/sse-replay.ts';
import type { AiEvent } from '../protocol/events.ts';
import { createAnthropicMapper } from './anthropic.ts';
import { createChatMapper } from './openai-chat.ts';
import { createResponsesMapper } from './openai-responses.ts';

const providers = {
  'openai-chat': createChatMapper,
  'openai-responses': createResponsesMapper,
  anthropic: createAnthropicMapper,
} as const;

// The provider's own words differ by design; everything Skimmer derives must not.
const withoutDetail = (events: AiEvent[]) =>
  events.map((e) => (e.type === 'error' ? { ...e, providerDetail: undefined } : e));

function mapped(provider: keyof typeof providers, name: string): AiEvent[] {
  const fixture = loadCorpus(provider).find((f) => f.name === name);
  if (!fixture) throw new Error(`${provider} has no fixture ${name}`);
  return withoutDetail(replay(fixture.body, providers[provider]()));
}

describe('the same answer from every provider', () => {
  test.each(identicalAcrossProviders)(
    '%s gives identical events from Chat, Responses and Anthropic',
    (name) => {
      const chat = mapped('openai-chat', name);
      expect(chat.length).toBeGreaterThan(1);
      expect(mapped('openai-responses', name)).toEqual(chat);
      expect(mapped('anthropic', name)).toEqual(chat);
    },
  );

  test.each(['parallel-calls', 'bad-tool-args'])('%s is identical from Responses and Anthropic', (name) => {
    expect(mapped('anthropic', name)).toEqual(mapped('openai-responses', name));
  });
});
