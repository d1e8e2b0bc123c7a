// The one way Skimmer talks HTTP to a model service (DESIGN §6 "Transport", "Retry", "Errors").
// Providers build the URL, headers and body and read their own error bodies (`classify`); this file owns
// everything between: the socket, redirects, timeouts, byte budgets, SSE framing, retries, and turning
// every failure into an AiFailure whose message is a sentence of ours.
import { createParser } from 'eventsource-parser';
import type { Agent } from 'undici';
import { type AiErrorCode, AiFailure, defaultCodeForStatus, isRetryable } from '../protocol/errors.ts';
import { redact } from '../protocol/redact.ts';
import type { SseFrame } from '../protocol/sse-frame.ts';
import { backoffMs, sleep as realSleep, retryAfterMs, retryableStatus, type Sleep } from './retry.ts';

export type HttpRequest = {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  keys: readonly string[];
  classify: (status: number, headers: Headers, body: string) => { code: AiErrorCode; detail?: string };
};

export type TransportOptions = {
  fetch?: typeof fetch;
  sleep?: Sleep;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  maxLineBytes?: number;
  maxAttempts?: number;
  // false: a 429 is not retried here but thrown, for a caller that schedules its own requests (a triage job
  // puts the message back in its paced queue; retrying here would jump that queue and meet more 429s).
  retryRateLimited?: boolean;
  // `attempt` is the number of the attempt that just failed (1 for the first).
  onRetry?: (info: { attempt: number; waitMs: number; code: AiErrorCode }) => void;
  // requestJson only: the headers of the answer it returns, once, after its body parsed. Some bodies carry
  // no id of their own and the request id lives only in a header (wire-formats §4 `x-request-id`, §5.1
  // `x-typesafe-request-id`); failed attempts are not reported, so a retried 503's id never wins.
  onResponse?: (headers: Headers, status: number) => void;
};

type Kind = 'stream' | 'json';
type Limits = Required<
  Omit<TransportOptions, 'fetch' | 'sleep' | 'onRetry' | 'onResponse' | 'retryRateLimited'>
>;

const MiB = 1024 * 1024;
const defaults: Record<Kind, Limits> = {
  stream: {
    connectTimeoutMs: 5_000,
    idleTimeoutMs: 60_000,
    totalTimeoutMs: 300_000,
    maxBytes: 8 * MiB,
    maxLineBytes: MiB,
    maxAttempts: 3,
  },
  json: {
    connectTimeoutMs: 5_000,
    idleTimeoutMs: 60_000,
    totalTimeoutMs: 45_000,
    maxBytes: MiB,
    maxLineBytes: MiB,
    maxAttempts: 3,
  },
};

// The part of a non-2xx body handed to `classify`; error bodies are small JSON, anything longer is noise.
const maxErrorBodyBytes = 64 * 1024;

// Streams SSE frames. Retries happen only until the first frame is ready: once a frame has been handed to
// the consumer, output has reached the user and a retry would duplicate it (DESIGN §6 "Retry").
// The end of the stream is not judged here: whether a terminal marker was missing is the provider's call.
export async function* streamSse(
  req: HttpRequest,
  opts: TransportOptions = {},
): AsyncGenerator<SseFrame, void, undefined> {
  const limits = { ...defaults.stream, ...defined(opts) };
  const opened = await withRetries(req, limits, opts, async () => {
    const attempt = new Attempt(req.signal, limits);
    try {
      const response = await send(req, 'POST', 'text/event-stream', attempt, limits, opts.fetch);
      const frames = readFrames(response, attempt, limits);
      return { attempt, frames, first: await frames.next() };
    } catch (err) {
      attempt.dispose();
      throw err;
    }
  });
  const { attempt, frames, first } = opened;
  try {
    if (first.done) return;
    yield first.value;
    yield* frames;
  } finally {
    await frames.return(undefined);
    attempt.dispose();
  }
}

// A non-streaming request (model lists, decisions): the parsed JSON body, under the same rules.
export async function requestJson(
  req: HttpRequest & { method?: 'GET' | 'POST' },
  opts: TransportOptions = {},
): Promise<unknown> {
  const limits = { ...defaults.json, ...defined(opts) };
  return withRetries(req, limits, opts, async () => {
    const attempt = new Attempt(req.signal, limits);
    try {
      const response = await send(req, req.method ?? 'POST', 'application/json', attempt, limits, opts.fetch);
      const { text } = await readText(response, attempt, limits.maxBytes, 'fail');
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        throw new AiFailure('malformed_stream');
      }
      try {
        opts.onResponse?.(response.headers, response.status);
      } catch {
        // A throwing callback must not turn an answer into a failure (as with onRetry).
      }
      return body;
    } finally {
      attempt.dispose();
    }
  });
}

// Failures whose code is retryable but whose answer said not to retry: a 4xx outside 408/409/429 that
// `classify` mapped to a retryable code, or `x-should-retry: false` (wire-formats §7 item 9). The header
// can only stop a retry; `x-should-retry: true` never overrides the code (a quota 429 stays final).
const final = new WeakSet<AiFailure>();

async function withRetries<T>(
  req: HttpRequest,
  limits: Limits,
  opts: TransportOptions,
  run: () => Promise<T>,
): Promise<T> {
  const wait = opts.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    if (req.signal?.aborted) throw new AiFailure('cancelled');
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof AiFailure)) throw err;
      if (!isRetryable(err.code) || final.has(err) || attempt >= limits.maxAttempts) throw err;
      if (err.code === 'rate_limited' && opts.retryRateLimited === false) throw err;
      const waitMs = err.retryAfterMs ?? backoffMs(attempt);
      try {
        opts.onRetry?.({ attempt, waitMs, code: err.code });
      } catch {
        // A throwing UI callback must not turn a retry into a failure.
      }
      try {
        await wait(waitMs, req.signal);
      } catch {
        if (req.signal?.aborted) throw new AiFailure('cancelled');
        throw err;
      }
    }
  }
}

async function send(
  req: HttpRequest,
  method: 'GET' | 'POST',
  accept: string,
  attempt: Attempt,
  limits: Limits,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const init = prepare(req, method, accept);
  const response = await attempt.waitFor(async () =>
    fetchImpl(req.url, {
      ...init,
      signal: attempt.signal,
      // SECURITY: never follow a redirect. The headers carry the key, and it may only ever go to the
      // origin the user configured; with 'manual' nothing is requested from the Location.
      redirect: 'manual',
      // SECURITY: an explicit dispatcher replaces the global one, which NODE_USE_ENV_PROXY (or any
      // setGlobalDispatcher call) would turn into a proxy: keys and mail never leave through an
      // ambient proxy the user did not choose for this service.
      dispatcher: await agentFor(limits),
    } as RequestInit),
  );
  if (response.status >= 200 && response.status < 300) return response;
  throw await httpFailure(req, response, attempt);
}

function prepare(req: HttpRequest, method: 'GET' | 'POST', accept: string): RequestInit {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new AiFailure('invalid_request');
  }
  // SECURITY: defence in depth behind the base-URL rules: nothing but http(s), no credentials in the URL.
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new AiFailure('invalid_request');
  }
  const headers = new Headers({ accept });
  let body: string | undefined;
  try {
    if (method === 'POST') {
      body = JSON.stringify(req.body);
      headers.set('content-type', 'application/json');
    }
    for (const [name, value] of Object.entries(req.headers)) headers.set(name, value);
  } catch {
    // An unserializable body or an invalid header value: a bug upstream, never worth sending.
    throw new AiFailure('invalid_request');
  }
  return body === undefined ? { method, headers } : { method, headers, body };
}

async function httpFailure(req: HttpRequest, response: Response, attempt: Attempt): Promise<AiFailure> {
  const status = response.status;
  if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
    // SECURITY: the Location is neither followed nor reported; it may carry a query or a token.
    void response.body?.cancel().catch(() => {});
    const failure = new AiFailure('http_status', { providerDetail: `HTTP ${status} redirect refused` });
    final.add(failure);
    return failure;
  }
  const { text } = await readText(response, attempt, maxErrorBodyBytes, 'truncate').catch((err: unknown) => {
    const failure = attempt.failure(err);
    if (failure.code === 'cancelled') throw failure;
    return { text: '' }; // the status still says what happened
  });
  let verdict: { code: AiErrorCode; detail?: string };
  try {
    verdict = req.classify(status, response.headers, text);
  } catch {
    verdict = { code: defaultCodeForStatus(status) };
  }
  const detail = verdict.detail ? `HTTP ${status}: ${withoutQueries(verdict.detail)}` : `HTTP ${status}`;
  const wait = retryAfterMs(response.headers);
  const failure = new AiFailure(verdict.code, {
    providerDetail: redact(detail, req.keys),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  });
  if (!retryableStatus(status) || response.headers.get('x-should-retry') === 'false') final.add(failure);
  return failure;
}

// SECURITY: errors never contain a URL with a query (a key or a signed token may live there), even when
// a provider echoes one in its error text: keep the address, drop everything from `?` or `#`.
function withoutQueries(text: string): string {
  return text.replace(/\b(https?:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi, '$1?…');
}

async function* readFrames(response: Response, attempt: Attempt, limits: Limits): AsyncGenerator<SseFrame> {
  const ready: SseFrame[] = [];
  const parser = createParser({
    onEvent: (e) => ready.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data }),
  });
  const decoder = new TextDecoder(); // streaming: a code point split across chunks is held back, not mangled
  let lineBytes = 0;
  for await (const chunk of readBody(response, attempt, limits.maxBytes)) {
    lineBytes = unterminatedBytes(chunk, lineBytes);
    // SECURITY: fail closed on a line that never ends instead of buffering it without bound (wire-formats
    // §0; ThreatForge's sse.ts caps at the same 1 MiB).
    if (lineBytes > limits.maxLineBytes) throw attempt.stop('malformed_stream');
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* ready.splice(0);
  }
  // An event without its closing blank line is dropped at the end, as the WHATWG algorithm says.
  parser.feed(decoder.decode());
  yield* ready.splice(0);
}

// Bytes since the last line break, counting the ones carried over from earlier chunks.
function unterminatedBytes(chunk: Uint8Array, carried: number): number {
  for (let i = chunk.length - 1; i >= 0; i--) {
    if (chunk[i] === 0x0a || chunk[i] === 0x0d) return chunk.length - 1 - i;
  }
  return carried + chunk.length;
}

async function readText(
  response: Response,
  attempt: Attempt,
  maxBytes: number,
  overflow: 'fail' | 'truncate',
): Promise<{ text: string }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of readBody(response, attempt, overflow === 'fail' ? maxBytes : Infinity)) {
    const room = maxBytes - size;
    parts.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(room, chunk.byteLength);
    if (overflow === 'truncate' && size >= maxBytes) break;
  }
  return { text: new TextDecoder().decode(Buffer.concat(parts)) };
}

// The body as chunks, each read under the idle timer, the whole under the byte budget.
async function* readBody(response: Response, attempt: Attempt, maxBytes: number): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await attempt.waitFor(() => reader.read());
      if (done) return;
      total += value.byteLength;
      // SECURITY: a server that never stops (or a decompression bomb: these are decoded bytes) cannot
      // exhaust memory; the budget covers the whole response, not one line.
      if (total > maxBytes) throw attempt.stop('response_too_large');
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// One HTTP attempt. Its own AbortController is fed by the user's Stop and by the timers, and records
// which of them fired first, so every failure knows its cause (a Stop is `cancelled`, never `transport`)
// and a timeout names the limit it met.
class Attempt {
  readonly #controller = new AbortController();
  readonly #aborted: Promise<never>;
  readonly #idleMs: number;
  readonly #total: ReturnType<typeof setTimeout>;
  readonly #unlink: () => void;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #cause: { code: AiErrorCode; detail?: string } | undefined;

  constructor(signal: AbortSignal | undefined, limits: Limits) {
    this.#idleMs = limits.idleTimeoutMs;
    this.#aborted = new Promise<never>((_, reject) => {
      this.#controller.signal.addEventListener('abort', () => reject(this.failure()), { once: true });
    });
    this.#aborted.catch(() => {});
    const onStop = () => this.stop('cancelled');
    signal?.addEventListener('abort', onStop, { once: true });
    this.#unlink = () => signal?.removeEventListener('abort', onStop);
    this.#total = setTimeout(
      () => this.stop('timeout', `The whole request took longer than ${limits.totalTimeoutMs} ms.`),
      limits.totalTimeoutMs,
    );
    if (signal?.aborted) this.stop('cancelled');
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  // Ends the attempt for `code` (the first cause wins) and returns the failure to throw.
  stop(code: AiErrorCode, detail?: string): AiFailure {
    this.#cause ??= detail ? { code, detail } : { code };
    this.#controller.abort();
    return this.failure();
  }

  // Runs one step (connect and headers, or one read) under the idle timer; whatever it throws, or an
  // abort that it does not notice in time, becomes an AiFailure.
  async waitFor<T>(step: () => Promise<T>): Promise<T> {
    this.#idle = setTimeout(
      () => this.stop('timeout', `Nothing arrived for ${this.#idleMs} ms.`),
      this.#idleMs,
    );
    try {
      return await Promise.race([step(), this.#aborted]);
    } catch (err) {
      throw this.failure(err);
    } finally {
      clearTimeout(this.#idle);
    }
  }

  failure(err?: unknown): AiFailure {
    if (err instanceof AiFailure) return err;
    if (this.#cause) {
      const { code, detail } = this.#cause;
      return new AiFailure(code, detail ? { providerDetail: detail } : {});
    }
    const code = errorCode(err);
    // undici's own connect, headers and body timers (the Agent below) report through `cause.code`.
    if (
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      return new AiFailure('timeout', { providerDetail: code });
    }
    // Only a bare error code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET), never the error's message,
    // which can name the URL.
    return new AiFailure('transport', code ? { providerDetail: code } : {});
  }

  dispose(): void {
    clearTimeout(this.#total);
    clearTimeout(this.#idle);
    this.#unlink();
    this.#cause ??= { code: 'cancelled' };
    this.#controller.abort(); // releases the socket if the consumer stopped reading early
  }
}

function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
  }
  return undefined;
}

// One connection pool per timeout pair, kept for the life of the process so keep-alive works.
// connect.timeout is the 5 s connect limit; headersTimeout and bodyTimeout back up the per-gap idle
// timer at the socket level (undici pauses its body timer while the consumer applies backpressure).
// undici is loaded with the first request, not at every start of the command line (issue 18).
const agents = new Map<string, Agent>();

async function agentFor(limits: Limits): Promise<Agent> {
  const key = `${limits.connectTimeoutMs}/${limits.idleTimeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    const { Agent } = await import('undici');
    agent =
      agents.get(key) ??
      new Agent({
        connect: { timeout: limits.connectTimeoutMs },
        headersTimeout: limits.idleTimeoutMs,
        bodyTimeout: limits.idleTimeoutMs,
      });
    agents.set(key, agent);
  }
  return agent;
}

// Options left undefined keep their defaults instead of overriding them with undefined.
function defined(opts: TransportOptions): Partial<Limits> {
  const out: Partial<Limits> = {};
  for (const key of Object.keys(defaults.stream) as (keyof Limits)[]) {
    const value = opts[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
