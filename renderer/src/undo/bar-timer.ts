// How long the Undo bar stays (issue 29 §7: it stayed until dismissed). It leaves after the send's undo window
// (shared/undo-window.ts), Gmail's ten seconds, counted only while nobody holds it: while the pointer is over
// it or the focus is in it, someone is reaching for its button, and the time left waits until they leave.
// Pure apart from the timer it is given; tested in bar-timer.test.ts with fake timers.
import { undoWindowMs } from '../../../shared/undo-window.ts';

export const undoBarMs = undoWindowMs;

export type Hold = 'hover' | 'focus';

export type BarTimer = {
  hold(why: Hold): void;
  release(why: Hold): void;
  cancel(): void;
};

/** Calls `onEnd` once `ms` have passed with no hold; `now` is the clock the time left is measured by. */
export function barTimer(onEnd: () => void, ms = undoBarMs, now: () => number = Date.now): BarTimer {
  const holds = new Set<Hold>();
  let left = ms;
  let startedAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ended = false;

  const run = () => {
    startedAt = now();
    timer = setTimeout(() => {
      timer = null;
      ended = true;
      onEnd();
    }, left);
  };
  const stop = () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    left = Math.max(0, left - (now() - startedAt));
  };
  run();

  return {
    hold(why) {
      if (ended) return;
      holds.add(why);
      stop();
    },
    release(why) {
      if (ended || !holds.delete(why) || holds.size > 0 || timer !== null) return;
      run();
    },
    cancel() {
      ended = true;
      stop();
    },
  };
}
