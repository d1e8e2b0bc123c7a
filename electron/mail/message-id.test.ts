import { describe, expect, test } from 'vitest';
import { newMessageId } from './message-id.ts';

describe('newMessageId', () => {
  test('is at the sender’s domain, lower-cased', () => {
    expect(newMessageId('skimmer', 'Ana@Example.COM', 1700000000000)).toMatch(
      /^<skimmer\.1700000000000\.[0-9a-f]{12}@example\.com>$/,
    );
  });
  test('a Unicode domain is written in punycode', () => {
    expect(newMessageId('skimmer', 'jörg@bücher.example', 1)).toMatch(/@xn--bcher-kva\.example>$/);
  });
  test('without a usable address it says so with skimmer.invalid', () => {
    for (const from of [null, undefined, '', 'no-at-sign', 'x@localhost', 'x@bad domain.example']) {
      expect(newMessageId('skimmer-draft.4', from, 2)).toMatch(
        /^<skimmer-draft\.4\.2\.[0-9a-f]{12}@skimmer\.invalid>$/,
      );
    }
  });
  test('two made in the same millisecond differ', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newMessageId('skimmer', 'a@example.com', 5)));
    expect(ids.size).toBe(100);
  });
});
