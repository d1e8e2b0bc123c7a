// The cache of attachments read lately (part-cache.ts): within its bound in bytes, least recently used first.
import { describe, expect, test } from 'vitest';
import { createPartCache } from './part-cache.ts';

const part = (n: number) => ({ content: Buffer.alloc(n) });

describe('createPartCache', () => {
  test('keeps what fits and lets the least recently used go', () => {
    const cache = createPartCache(100);
    cache.put('a', part(40));
    cache.put('b', part(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.put('c', part(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.bytes).toBe(80);
  });

  test('one larger than the whole bound is not kept, and what was there stays', () => {
    const cache = createPartCache(100);
    cache.put('a', part(10));
    cache.put('huge', part(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBe(10);
  });

  test('putting a key again replaces it and counts it once', () => {
    const cache = createPartCache(100);
    cache.put('a', part(60));
    cache.put('a', part(30));
    expect(cache.bytes).toBe(30);
    expect(cache.get('a')?.content.length).toBe(30);
  });
});
