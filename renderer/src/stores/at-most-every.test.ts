import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { atMostEvery } from './at-most-every.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('the first request runs at once', () => {
  const run = vi.fn();
  atMostEvery(1000, run).request();
  expect(run).toHaveBeenCalledTimes(1);
});

test('requests within the interval collapse into one run at its end', () => {
  const run = vi.fn();
  const throttled = atMostEvery(1000, run);
  throttled.request();
  throttled.request();
  throttled.request();
  expect(run).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(999);
  expect(run).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(1);
  expect(run).toHaveBeenCalledTimes(2);
  vi.advanceTimersByTime(5000);
  expect(run).toHaveBeenCalledTimes(2);
});

test('a steady stream of requests runs once per interval', () => {
  const run = vi.fn();
  const throttled = atMostEvery(1000, run);
  for (let ms = 0; ms < 5000; ms += 100) {
    throttled.request();
    vi.advanceTimersByTime(100);
  }
  expect(run.mock.calls.length).toBeGreaterThanOrEqual(5);
  expect(run.mock.calls.length).toBeLessThanOrEqual(6);
});

test('after a quiet interval the next request runs at once again', () => {
  const run = vi.fn();
  const throttled = atMostEvery(1000, run);
  throttled.request();
  vi.advanceTimersByTime(1000);
  throttled.request();
  expect(run).toHaveBeenCalledTimes(2);
});

test('cancel drops a pending run', () => {
  const run = vi.fn();
  const throttled = atMostEvery(1000, run);
  throttled.request();
  throttled.request();
  throttled.cancel();
  vi.advanceTimersByTime(2000);
  expect(run).toHaveBeenCalledTimes(1);
});
