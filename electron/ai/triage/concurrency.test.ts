import { describe, expect, test } from 'vitest';
import { onRateLimited, onStart, onSuccess, startConcurrency, startDelay } from './concurrency.ts';

describe('adaptive concurrency', () => {
  test('grows by one slot after 20 successes in a row, up to 64', () => {
    let c = startConcurrency(4);
    for (let i = 0; i < 19; i++) c = onSuccess(c, null, 0);
    expect(c.limit).toBe(4);
    c = onSuccess(c, null, 0);
    expect(c.limit).toBe(5);
    for (let i = 0; i < 10_000; i++) c = onSuccess(c, null, 0);
    expect(c.limit).toBe(64);
  });

  test('halves on a rate limit and pauses for what the service asked, never below one slot', () => {
    let c = onRateLimited(startConcurrency(5), 1000, 3000);
    expect(c).toMatchObject({ limit: 2, pausedUntil: 4000, streak: 0 });
    c = onRateLimited(c, 1000, undefined);
    expect(c).toMatchObject({ limit: 1, pausedUntil: 4000 });
    expect(onRateLimited(c, 5000, 500).limit).toBe(1);
  });

  test('starts at once while slots are free, and not at all when every slot is busy', () => {
    const c = startConcurrency(4);
    expect(startDelay(c, 10_000, 3)).toBe(0);
    expect(startDelay(c, 10_000, 4)).toBeNull();
  });

  test('waits out a pause the service asked for', () => {
    const c = onRateLimited(startConcurrency(4), 10_000, 1500);
    expect(startDelay(c, 10_500, 0)).toBe(1000);
    expect(startDelay(c, 11_500, 0)).toBe(0);
  });

  test.each([
    // remaining, limit, resetMs → spacing between starts
    [100, 600, 50_000, 0], // plenty left: no pacing
    [4, 600, 59_600, 100], // nearly spent: one refill interval (596 used in 59.6 s)
    [0, 1200, 60_000, 50],
    [0, 1, 2_000, 2000],
  ])(
    'with %i of %i left and %i ms to reset, starts are %i ms apart',
    (remaining, limit, resetMs, spacing) => {
      let c = onSuccess(startConcurrency(4), { remaining, limit, resetMs }, 0);
      expect(c.spacingMs).toBe(spacing);
      c = onStart(onStart(c, 20_000), 20_000);
      expect(startDelay(c, 20_000, 0)).toBe(spacing);
      expect(startDelay(c, 20_000 + spacing, 0)).toBe(0);
    },
  );

  test('keeps to the schedule when a timer fires late, with at most one interval of credit', () => {
    let c = onSuccess(startConcurrency(4), { remaining: 0, limit: 60, resetMs: 6_000 }, 0); // every 100 ms
    c = onStart(onStart(c, 1000), 1000); // due at 1000, then at 1100
    c = onStart(c, 1130); // the timer was 30 ms late
    expect(startDelay(c, 1130, 0)).toBe(70); // the next is still due at 1200
    c = onStart(c, 5000); // after a long wait, one start now …
    expect(startDelay(c, 5000, 0)).toBe(0); // … one more at once (the credit) …
    c = onStart(c, 5000);
    expect(startDelay(c, 5000, 0)).toBe(100); // … and then the pace again, no burst
  });

  test('stops pacing once the service reports room again', () => {
    let c = onSuccess(startConcurrency(4), { remaining: 0, limit: 60, resetMs: 60_000 }, 0);
    expect(c.spacingMs).toBe(1000);
    c = onSuccess(c, { remaining: 50, limit: 60, resetMs: 10_000 }, 0);
    expect(c.spacingMs).toBe(0);
    // A response without the headers leaves the pace as it was.
    c = onSuccess(onSuccess(c, { remaining: 1, limit: 60, resetMs: 59_000 }, 0), null, 0);
    expect(c.spacingMs).toBe(1000);
  });

  test('without headers, a 429 sets the pace to the rate the service allowed lately, 2 % slower', () => {
    let c = startConcurrency(8);
    for (let t = 0; t < 5000; t += 50) c = onSuccess(c, null, t); // 100 successes, one every 50 ms
    c = onRateLimited(c, 5000, 100);
    expect(c.spacingMs).toBe(51);
    expect(c.limit).toBe(13); // 8 grown by the 100 successes, and not halved: the pace holds the rate now
    expect(c.pausedUntil).toBe(5100);
    // The other requests of that moment come back 429 too: they pause, and neither halve nor relearn.
    c = onRateLimited(c, 5010, 100);
    expect(c).toMatchObject({ spacingMs: 51, limit: 13, pausedUntil: 5110 });
  });

  test('a learned pace is tried 2 % faster after 100 successes without a 429', () => {
    let c = startConcurrency(4);
    for (let t = 0; t < 1000; t += 100) c = onSuccess(c, null, t);
    c = onRateLimited(c, 1000, 0); // 10 successes in 1 s: 100 ms → 102 ms
    expect(c.spacingMs).toBe(102);
    for (let i = 0; i < 5; i++) c = onSuccess(c, null, 1000 + i * 100);
    c = onRateLimited(c, 1500, 0); // too few successes to learn from: only the calm spell starts again
    expect(c.spacingMs).toBe(102);
    for (let i = 0; i < 99; i++) c = onSuccess(c, null, 1600 + i * 100);
    expect(c.spacingMs).toBe(102);
    c = onSuccess(c, null, 11_600);
    expect(c.spacingMs).toBe(99);
  });

  test('a service that sends headers is paced by them, never by what its 429s teach', () => {
    let c = onSuccess(startConcurrency(4), { remaining: 0, limit: 10, resetMs: 1000 }, 0);
    for (let t = 1; t < 20; t++) c = onSuccess(c, null, t * 10);
    c = onRateLimited(c, 200, 100);
    expect(c.spacingMs).toBe(100);
    expect(c.limit).toBe(2);
  });
});
