// The contract every provider mapper is held to (issue 3): each of its transcripts maps to the expected
// events at every split, every event is in the contract, nothing in mustNotContain leaks, and every HTTP
// error body is classified to the expected code.
import { describe, expect, test } from 'vitest';
import { AiEvent } from '../../electron/ai/protocol/events.ts';
import type { StreamMapper } from '../../electron/ai/providers/stream-parts.ts';
import { type CorpusProvider, loadCorpus } from '../../fixtures/sse/corpus.ts';
import { chunkSizes, replay } from './sse-replay.ts';

export function describeProviderContract(
  provider: CorpusProvider,
  createMapper: () => StreamMapper,
  classify: (status: number, headers: Headers, body: string) => { code: string },
): void {
  const corpus = loadCorpus(provider);
  describe(`${provider} stream mapping`, () => {
    test.each(corpus.filter((f) => f.status === 200).map((f) => [f.name, f] as const))(
      '%s maps to its expected events at every split',
      (_n, f) => {
        for (const size of chunkSizes(f.body.length)) {
          const events = replay(f.body, createMapper(), size);
          for (const e of events) AiEvent.parse(e);
          expect(events).toHaveLength(f.expected.length);
          for (const [i, e] of events.entries()) expect(e).toMatchObject(f.expected[i] as object);
          for (const secret of f.mustNotContain) expect(JSON.stringify(events)).not.toContain(secret);
        }
      },
    );
  });
  describe(`${provider} HTTP errors`, () => {
    test.each(corpus.filter((f) => f.status !== 200).map((f) => [f.name, f] as const))(
      '%s is classified by status and body',
      (_n, f) => {
        const { code } = classify(f.status, new Headers(f.headers), f.body.toString());
        expect(code).toBe((f.expected[0] as { code: string }).code);
      },
    );
  });
}
