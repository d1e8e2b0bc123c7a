// How many judge requests run at once, and how fast new ones start (issue 6: "bounded concurrency that
// adapts to rate-limit headers and 429s"). Pure.
//
// Slots: additive increase, multiplicative decrease, as TCP does: one more slot after a run of successes,
// half the slots (and a pause everyone waits out) when the service says it is rate limited.
//
// Pace: when the service says how much of its allowance is left (protocol/rate-limit.ts) and that is no
// more than the requests that could be in flight, new requests start one refill interval apart instead of
// all at once, so the job runs at the service's rate rather than into its 429s. The interval is read from
// the headers: the allowance refills `limit - remaining` requests in `resetMs` (OpenAI: "the time until
// the rate limit resets to its initial state").
import type { RateLimit } from '../protocol/rate-limit.ts';

export type Concurrency = {
  limit: number;
  /** Until this time (epoch ms) no new request starts. */
  pausedUntil: number;
  streak: number;
  /** Milliseconds between two starts while the allowance is nearly spent; 0 = no pacing. */
  spacingMs: number;
  lastStartAt: number;
};

export const startConcurrency = (limit = 4): Concurrency => ({
  limit,
  pausedUntil: 0,
  streak: 0,
  spacingMs: 0,
  lastStartAt: 0,
});
export const maxSlots = 64;
const growAfter = 20;
const defaultPauseMs = 2000;

export function onSuccess(c: Concurrency, rate: RateLimit | null = null): Concurrency {
  const streak = c.streak + 1;
  const grown = streak >= growAfter ? { limit: Math.min(maxSlots, c.limit + 1), streak: 0 } : { streak };
  return { ...c, ...grown, ...(rate ? { spacingMs: spacingFor(rate, c.limit) } : {}) };
}

function spacingFor(rate: RateLimit, slots: number): number {
  if (rate.remaining > slots) return 0;
  return Math.ceil(rate.resetMs / Math.max(1, rate.limit - rate.remaining));
}

export function onRateLimited(c: Concurrency, now: number, retryAfterMs: number | undefined): Concurrency {
  return {
    ...c,
    limit: Math.max(1, Math.floor(c.limit / 2)),
    pausedUntil: Math.max(c.pausedUntil, now + (retryAfterMs ?? defaultPauseMs)),
    streak: 0,
  };
}

// The pace is a schedule, not a gap after each start: a start the timer let through late does not push the
// next one back (on a busy machine a 10 ms timer fires after 12–15 ms, which would cost a fifth of the
// rate). The credit is one interval at most, so a pause never turns into a burst.
export const onStart = (c: Concurrency, now: number): Concurrency => ({
  ...c,
  lastStartAt: Math.max(c.lastStartAt + c.spacingMs, now - c.spacingMs),
});

/** null: every slot is busy (a finishing request will look again); otherwise how long until the next start. */
export function startDelay(c: Concurrency, now: number, running: number): number | null {
  if (running >= c.limit) return null;
  return Math.max(0, c.pausedUntil - now, c.lastStartAt + c.spacingMs - now);
}
