// How many judge requests run at once (issue 6: "bounded concurrency that adapts to rate-limit headers and
// 429s"). Additive increase, multiplicative decrease, as TCP does: one more slot after a run of successes,
// half the slots (and a pause everyone waits out) when the service says it is rate limited. Pure.
export type Concurrency = {
  limit: number;
  /** Until this time (epoch ms) no new request starts. */
  pausedUntil: number;
  streak: number;
};

export const startConcurrency = (limit = 4): Concurrency => ({ limit, pausedUntil: 0, streak: 0 });
const maxLimit = 8;
const growAfter = 20;

export function onSuccess(c: Concurrency): Concurrency {
  const streak = c.streak + 1;
  return streak >= growAfter ? { ...c, limit: Math.min(maxLimit, c.limit + 1), streak: 0 } : { ...c, streak };
}

export function onRateLimited(c: Concurrency, now: number, retryAfterMs: number | undefined): Concurrency {
  return {
    limit: Math.max(1, Math.floor(c.limit / 2)),
    pausedUntil: Math.max(c.pausedUntil, now + (retryAfterMs ?? 2000)),
    streak: 0,
  };
}
