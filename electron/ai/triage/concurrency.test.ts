import { describe, expect, test } from 'vitest';
import { onRateLimited, onSuccess, startConcurrency } from './concurrency.ts';

describe('adaptive concurrency', () => {
  test('grows by one slot after 20 successes in a row, up to 8', () => {
    let c = startConcurrency(4);
    for (let i = 0; i < 19; i++) c = onSuccess(c);
    expect(c.limit).toBe(4);
    c = onSuccess(c);
    expect(c.limit).toBe(5);
    for (let i = 0; i < 200; i++) c = onSuccess(c);
    expect(c.limit).toBe(8);
  });

  test('halves on a rate limit and pauses for what the service asked, never below one slot', () => {
    let c = onRateLimited(startConcurrency(5), 1000, 3000);
    expect(c).toEqual({ limit: 2, pausedUntil: 4000, streak: 0 });
    c = onRateLimited(c, 1000, undefined);
    expect(c).toEqual({ limit: 1, pausedUntil: 4000, streak: 0 });
    expect(onRateLimited(c, 5000, 500).limit).toBe(1);
  });
});
