import { describe, expect, test } from 'vitest';
import { durationMs, readRateLimit } from './rate-limit.ts';

describe('rate-limit headers', () => {
  test.each([
    ['1s', 1000],
    ['6m0s', 360_000],
    ['120ms', 120],
    ['1h2m3.5s', 3_723_500],
    ['0.5s', 500],
    ['', null],
    ['soon', null],
    ['-1s', null],
    ['1s junk', null],
    ['10', null],
  ])('reads the duration %j as %j ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  test("reads OpenAI's x-ratelimit-*-requests headers", () => {
    const h = new Headers({
      'x-ratelimit-limit-requests': '5000',
      'x-ratelimit-remaining-requests': '4999',
      'x-ratelimit-reset-requests': '12ms',
    });
    expect(readRateLimit(h)).toEqual({ limit: 5000, remaining: 4999, resetMs: 12 });
  });

  test("reads Anthropic's headers, whose reset is a time", () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    const h = new Headers({
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-11-30T10:00:02Z',
    });
    expect(readRateLimit(h, now)).toEqual({ limit: 50, remaining: 0, resetMs: 2000 });
  });

  test("reads the IETF draft's ratelimit-* headers, reset in seconds", () => {
    const h = new Headers({ 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '30' });
    expect(readRateLimit(h)).toEqual({ limit: 100, remaining: 7, resetMs: 30_000 });
  });

  test('says nothing when a header is missing or unreadable (System One sends none)', () => {
    expect(readRateLimit(new Headers({ 'x-request-id': 'r1' }))).toBeNull();
    expect(
      readRateLimit(
        new Headers({
          'x-ratelimit-limit-requests': 'many',
          'x-ratelimit-remaining-requests': '3',
          'x-ratelimit-reset-requests': '1s',
        }),
      ),
    ).toBeNull();
    expect(
      readRateLimit(
        new Headers({
          'x-ratelimit-limit-requests': '0',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '1s',
        }),
      ),
    ).toBeNull();
  });

  test('keeps remaining within the limit and the reset within an hour', () => {
    const h = new Headers({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '99',
      'x-ratelimit-reset-requests': '99h',
    });
    expect(readRateLimit(h)).toEqual({ limit: 10, remaining: 10, resetMs: 3_600_000 });
  });
});
