import { describe, expect, test } from 'vitest';
import { loadCorpus } from '../../../fixtures/sse/corpus.ts';
import { chunkSizes, replay } from '../../../test/support/sse-replay.ts';
import { AiEvent } from '../protocol/events.ts';
import { classifyChatError, createChatMapper } from './openai-chat.ts';

const corpus = loadCorpus('openai-chat');
const streams = corpus.filter((f) => f.status === 200);
const httpErrors = corpus.filter((f) => f.status !== 200);

describe('OpenAI Chat stream mapping', () => {
  test.each(streams.map((f) => [f.name, f] as const))(
    '%s maps to its expected events at every split',
    (_n, f) => {
      for (const size of chunkSizes(f.body.length)) {
        const events = replay(f.body, createChatMapper(), size);
        for (const e of events) AiEvent.parse(e);
        expect(events).toHaveLength(f.expected.length);
        for (const [i, e] of events.entries()) expect(e).toMatchObject(f.expected[i] as object);
        for (const secret of f.mustNotContain) expect(JSON.stringify(events)).not.toContain(secret);
      }
    },
  );
});

describe('OpenAI Chat HTTP errors', () => {
  test.each(httpErrors.map((f) => [f.name, f] as const))('%s is classified by status and body', (_n, f) => {
    const { code } = classifyChatError(f.status, new Headers(f.headers), f.body.toString());
    expect(code).toBe((f.expected[0] as { code: string }).code);
  });
});
