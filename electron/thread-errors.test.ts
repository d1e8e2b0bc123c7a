import { describe, expect, test } from 'vitest';
import { AiFailure } from './ai/protocol/errors.ts';
import { type CrossedError, crossed, domainErrors, rebuilt } from './thread-errors.ts';

describe('a typed error crossing a thread', () => {
  test.each(Object.entries(domainErrors))(
    'a %s error keeps its class, reason and sentence',
    (_kind, Class) => {
      const original = new (Class as new (reason: string, message: string) => Error & { reason: string })(
        'not_found',
        'That is not there.',
      );
      // What a worker posts goes through structured clone, which keeps only plain data.
      const posted = structuredClone(crossed(original)) as CrossedError;
      const again = rebuilt(posted) as Error & { reason: string };
      expect(again).toBeInstanceOf(Class);
      expect(again.reason).toBe('not_found');
      expect(again.message).toBe('That is not there.');
      // Each class is its own kind: none is taken for another on the way back.
      for (const Other of Object.values(domainErrors))
        if (Other !== Class) expect(again).not.toBeInstanceOf(Other);
    },
  );

  test('anything else does not cross as a typed error', () => {
    expect(crossed(new Error('a bug'))).toBeUndefined();
    expect(crossed(new AiFailure('not_found'))).toBeUndefined();
    expect(crossed('a string')).toBeUndefined();
  });
});
