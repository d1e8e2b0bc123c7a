import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { backoffMs, retryAfterMs, retryableStatus, sleep } from './retry.ts';

describe('retryableStatus', () => {
  test.each([408, 409, 429, 500, 502, 503, 504, 529])('retries %i', (status) => {
    expect(retryableStatus(status)).toBe(true);
  });

  test.each([301, 400, 401, 403, 404, 413, 422])('never retries %i', (status) => {
    expect(retryableStatus(status)).toBe(false);
  });
});

test.each([
  [1, 500],
  [2, 1_000],
  [3, 2_000],
  [5, 8_000],
  [6, 10_000],
  [20, 10_000],
])('backs off %i failure(s) with %i ms', (failures, ms) => {
  expect(backoffMs(failures)).toBe(ms);
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  test.each([
    [{ 'retry-after-ms': '1500' }, 1_500],
    [{ 'retry-after-ms': '12.6' }, 13],
    [{ 'retry-after': '2' }, 2_000],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': 'Sun, 01 Mar 2026 12:00:10 GMT' }, 10_000],
    [{ 'retry-after-ms': '250', 'retry-after': '30' }, 250],
  ])('honours %o as %i ms', (headers, ms) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(ms);
  });

  test.each([
    [{ 'retry-after': '3600' }, 60_000],
    [{ 'retry-after-ms': '999999' }, 60_000],
    [{ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }, 0],
  ])('clamps %o to %i ms', (headers, ms) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(ms);
  });

  test.each([{}, { 'retry-after': 'soon' }, { 'retry-after': '-5' }, { 'retry-after-ms': 'NaN' }])(
    'leaves %o to backoff',
    (headers) => {
      expect(retryAfterMs(new Headers(headers), now)).toBeUndefined();
    },
  );
});

// Fake timers stand in for the clock: what is checked is the order of things and the timers left behind.
describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('ends as soon as the signal aborts, with its reason, and leaves no timer behind', async () => {
    const stop = new AbortController();
    const slept = sleep(30_000, stop.signal);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new DOMException('Stopped by the user.', 'AbortError');
    stop.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('ends with the AbortError of a plain abort', async () => {
    const stop = new AbortController();
    const slept = sleep(30_000, stop.signal);
    stop.abort();
    await expect(slept).rejects.toMatchObject({ name: 'AbortError', code: DOMException.ABORT_ERR });
  });

  test('does not start when the signal has already aborted', async () => {
    await expect(sleep(30_000, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
      code: DOMException.ABORT_ERR,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  test('resolves once its time has passed, not before', async () => {
    let done = false;
    const slept = sleep(30_000, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
