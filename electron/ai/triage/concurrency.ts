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
//
// A service that sends no such headers (System One) is paced by what its 429s teach: at a 429 the rate of
// the last successes is about what it allows, so new requests start that far apart (2 % slower); after
// every 100 successes without a 429 the pace is tried 2 % faster, until the next 429 measures it again.
import type { RateLimit } from '../protocol/rate-limit.ts';

export type Concurrency = {
  limit: number;
  /** Until this time (epoch ms) no new request starts. */
  pausedUntil: number;
  streak: number;
  /** Milliseconds between two starts while the allowance is nearly spent; 0 = no pacing. */
  spacingMs: number;
  lastStartAt: number;
  /** When the last successes (at most `remembered`) came back, oldest first. */
  recent: number[];
  /** Whether the service's headers set the pace (true) or its 429s taught it (false). */
  headers: boolean;
  /** Successes since the last 429. */
  calm: number;
};

export const startConcurrency = (limit = 4): Concurrency => ({
  limit,
  pausedUntil: 0,
  streak: 0,
  spacingMs: 0,
  lastStartAt: 0,
  recent: [],
  headers: false,
  calm: 0,
});
const maxSlots = 64;
const growAfter = 20;
const defaultPauseMs = 2000;
const remembered = 100;
/** Fewer successes than this say too little about a rate. */
const enoughToLearn = 10;
const probeAfter = 100;

export function onSuccess(c: Concurrency, rate: RateLimit | null, now: number): Concurrency {
  const streak = c.streak + 1;
  const grown = streak >= growAfter ? { limit: Math.min(maxSlots, c.limit + 1), streak: 0 } : { streak };
  const recent = c.recent.length >= remembered ? [...c.recent.slice(1), now] : [...c.recent, now];
  const calm = c.calm + 1;
  if (rate) return { ...c, ...grown, recent, calm, headers: true, spacingMs: spacingFor(rate, c.limit) };
  // A learned pace is tried a little faster after a calm spell: the service may allow more than it did.
  const probe = !c.headers && c.spacingMs > 0 && calm % probeAfter === 0;
  return { ...c, ...grown, recent, calm, ...(probe ? { spacingMs: Math.floor(c.spacingMs * 0.98) } : {}) };
}

function spacingFor(rate: RateLimit, slots: number): number {
  if (rate.remaining > slots) return 0;
  return Math.ceil(rate.resetMs / Math.max(1, rate.limit - rate.remaining));
}

export function onRateLimited(c: Concurrency, now: number, retryAfterMs: number | undefined): Concurrency {
  const pausedUntil = Math.max(c.pausedUntil, now + (retryAfterMs ?? defaultPauseMs));
  const first = c.recent[0];
  if (!c.headers && first !== undefined && c.recent.length >= enoughToLearn && now > first) {
    // What the service allowed lately, as a gap between starts; the slots stay, the pace holds it.
    const learned = Math.ceil(((now - first) / c.recent.length) * 1.02);
    return { ...c, pausedUntil, streak: 0, calm: 0, spacingMs: learned, recent: [] };
  }
  // More 429s of the same moment (the other requests that were in flight) say nothing new about the rate.
  if (!c.headers && c.spacingMs > 0) return { ...c, pausedUntil, streak: 0, calm: 0 };
  return { ...c, limit: Math.max(1, Math.floor(c.limit / 2)), pausedUntil, streak: 0, calm: 0, recent: [] };
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
