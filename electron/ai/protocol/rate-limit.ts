// What a service says about its request rate limit, read from its response headers, so a bulk job can pace
// itself instead of learning the limit from 429s. Three spellings are in use (wire-formats §1.1, §6):
// OpenAI `x-ratelimit-{limit,remaining,reset}-requests` (reset as a duration such as `1s`, `6m0s`,
// `120ms`), Anthropic `anthropic-ratelimit-requests-{limit,remaining,reset}` (reset as an RFC 3339 time),
// and the IETF draft's `ratelimit-{limit,remaining,reset}` (reset in seconds). System One sends none
// (wire-formats §5.4); then this is null and the caller falls back to 429s and `retry-after`. Pure.

export type RateLimit = {
  /** Requests allowed in the service's window. */
  limit: number;
  /** Requests left right now. */
  remaining: number;
  /** Milliseconds until the allowance is whole again. */
  resetMs: number;
};

const count = (value: string | null): number | null =>
  value !== null && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : null;

const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** `6m0s`, `1s`, `120ms`, `1h2m3.5s` → milliseconds; anything else → null. */
export function durationMs(value: string | null): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(text)) return null;
  let ms = 0;
  for (const [, n, , unit] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g))
    ms += Number(n) * (units[unit as string] ?? 0);
  return Math.round(ms);
}

function secondsMs(value: string | null): number | null {
  return value !== null && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Math.round(Number(value) * 1000) : null;
}

function untilMs(value: string | null, now: number): number | null {
  if (value === null || !/^\d{4}-\d\d-\d\dT/.test(value.trim())) return null;
  const at = Date.parse(value.trim());
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function readRateLimit(headers: Headers, now: number = Date.now()): RateLimit | null {
  const spellings: [string, (v: string | null) => number | null][] = [
    ['x-ratelimit-%-requests', durationMs],
    ['anthropic-ratelimit-requests-%', (v) => untilMs(v, now)],
    ['ratelimit-%', secondsMs],
  ];
  for (const [pattern, reset] of spellings) {
    const limit = count(headers.get(pattern.replace('%', 'limit')));
    const remaining = count(headers.get(pattern.replace('%', 'remaining')));
    const resetMs = reset(headers.get(pattern.replace('%', 'reset')));
    if (limit !== null && remaining !== null && resetMs !== null && limit > 0)
      return { limit, remaining: Math.min(remaining, limit), resetMs: Math.min(resetMs, 3_600_000) };
  }
  return null;
}
