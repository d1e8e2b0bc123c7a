// When and how long to wait before trying a model-service request again (DESIGN §6 "Retry"). Pure
// decisions plus the one effect they need, an abortable sleep; the loop that uses them is in transport.ts.

// 408, 409, 429 and every 5xx (529 is Anthropic's and TypeSafe's "overloaded"): wire-formats §7 item 9,
// the same set the OpenAI and Anthropic SDKs retry. Every other status is final (400, 401, 403, 404, 422…).
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const firstBackoffMs = 500;
const maxBackoffMs = 10_000;

// 0.5 s × 2ⁿ, capped at 10 s, after the `failedAttempts`-th failure (1 → 500 ms, 2 → 1 s, 3 → 2 s…).
// No jitter: one desktop user is not a thundering herd, and a fixed schedule is what the UI can announce.
export function backoffMs(failedAttempts: number): number {
  return Math.min(maxBackoffMs, firstBackoffMs * 2 ** Math.max(0, failedAttempts - 1));
}

// A server may ask for any wait; we wait at most a minute (the user is watching "retrying in N s" and can
// press Stop, but should not be parked for an hour by a misconfigured proxy).
const maxRetryAfterMs = 60_000;

// `retry-after-ms` (OpenAI, Anthropic: milliseconds, may be fractional) wins over `retry-after`
// (RFC 9110 §10.2.3: delay-seconds or an HTTP-date). Unparseable values are ignored (undefined, so the
// caller falls back to backoff); the result is clamped to [0, 60 s].
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return clamp(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value) * 1000);
  // An HTTP-date names its month (and weekday); without a letter it is junk such as "-5", which V8's
  // lenient Date.parse would read as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : clamp(date - now);
}

function clamp(ms: number): number {
  return Math.round(Math.min(maxRetryAfterMs, Math.max(0, ms)));
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

// Resolves after `ms`, or rejects as soon as `signal` aborts (the user's Stop during "retrying in N s").
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
