import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { undoWindowMs } from '../../../shared/undo-window.ts';
import { barTimer, undoBarMs } from './bar-timer.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test("the bar's window is the send's undo window", () => {
  expect(undoBarMs).toBe(undoWindowMs);
});

test('the bar leaves once its window has passed, not before', () => {
  const onEnd = vi.fn();
  barTimer(onEnd, 10_000);
  vi.advanceTimersByTime(9_999);
  expect(onEnd).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(onEnd).toHaveBeenCalledTimes(1);
});

test('a hold stops the clock, and the time left runs on when it ends', () => {
  const onEnd = vi.fn();
  const timer = barTimer(onEnd, 10_000);
  vi.advanceTimersByTime(6_000);
  timer.hold('hover');
  vi.advanceTimersByTime(60_000);
  expect(onEnd).not.toHaveBeenCalled();
  timer.release('hover');
  vi.advanceTimersByTime(3_999);
  expect(onEnd).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(onEnd).toHaveBeenCalledTimes(1);
});

test('hover and focus hold it together: it waits until both have left', () => {
  const onEnd = vi.fn();
  const timer = barTimer(onEnd, 10_000);
  timer.hold('hover');
  timer.hold('focus');
  timer.release('hover');
  vi.advanceTimersByTime(30_000);
  expect(onEnd).not.toHaveBeenCalled();
  timer.release('focus');
  vi.advanceTimersByTime(10_000);
  expect(onEnd).toHaveBeenCalledTimes(1);
});

test('a release without a hold does not start a second clock', () => {
  const onEnd = vi.fn();
  const timer = barTimer(onEnd, 10_000);
  timer.release('focus');
  vi.advanceTimersByTime(10_000);
  expect(onEnd).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(10_000);
  expect(onEnd).toHaveBeenCalledTimes(1);
});

test('a cancelled timer never ends, held or not', () => {
  const onEnd = vi.fn();
  const timer = barTimer(onEnd, 10_000);
  timer.hold('hover');
  timer.cancel();
  timer.release('hover');
  vi.advanceTimersByTime(60_000);
  expect(onEnd).not.toHaveBeenCalled();
});
