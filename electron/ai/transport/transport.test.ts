// The transport against real loopback servers (node:http and raw node:net on 127.0.0.1, port 0).
// Only `sleep` is ever injected, so retry waits cost no real time; fetch, sockets and timers are real.
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { inspect } from 'node:util';
import { Worker } from 'node:worker_threads';
import { getGlobalDispatcher, ProxyAgent, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { AiFailure, defaultCodeForStatus } from '../protocol/errors.ts';
import type { SseFrame } from '../protocol/sse-frame.ts';
import { type HttpRequest, requestJson, streamSse, type TransportOptions } from './transport.ts';

const canary = 'sk-test-canary-7f3a9c2e';
const MiB = 1024 * 1024;

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void | Promise<void>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(handler: Handler): Promise<{ url: string; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    await handler(req, res, seen.length);
  });
  const port = await listen(server);
  cleanups.push(() => close(server));
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function close(server: net.Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  if (server instanceof http.Server) server.closeAllConnections();
  await closed;
}

// A port that was just free: nothing listens there, so connecting is refused.
async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

// A proxy that refuses everything but remembers what it was asked: plain requests (absolute URLs) and
// CONNECT tunnels (undici's ProxyAgent tunnels even plain http by default).
async function refusingProxy(): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(502);
    res.end();
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
    asked.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
  });
  const port = await listen(server);
  cleanups.push(() => close(server));
  return { url: `http://127.0.0.1:${port}`, asked };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sse(res: http.ServerResponse, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
}

// Mirrors what a provider's classify does: quota 429s are final, the rest follows the status.
const classify: HttpRequest['classify'] = (status, _headers, body) => ({
  code: body.includes('insufficient_quota') ? 'quota_exceeded' : defaultCodeForStatus(status),
  detail: body,
});

function request(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return {
    url,
    headers: { authorization: `Bearer ${canary}` },
    body: { model: 'test-model', stream: true },
    keys: [canary],
    classify,
    ...extra,
  };
}

// Records the retry schedule instead of waiting it out.
function recorder(extra: TransportOptions = {}) {
  const sleeps: number[] = [];
  const retries: { attempt: number; waitMs: number; code: string }[] = [];
  const opts: TransportOptions = {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onRetry: (info) => retries.push(info),
    ...extra,
  };
  return { sleeps, retries, opts };
}

async function drain(frames: AsyncIterable<SseFrame>): Promise<{ frames: SseFrame[]; error?: AiFailure }> {
  const got: SseFrame[] = [];
  try {
    for await (const frame of frames) got.push(frame);
  } catch (error) {
    if (error instanceof AiFailure) return { frames: got, error };
    throw error;
  }
  return { frames: got };
}

async function failure(promise: Promise<unknown>): Promise<AiFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AiFailure) return error;
    throw error;
  }
  throw new Error('expected an AiFailure');
}

describe('streamSse', () => {
  test('streams frames from a server that splits them at every byte', async () => {
    const transcript =
      ': keep-alive\r\n\r\n' +
      'event: message_start\r\ndata: {"text":"héllo 👋"}\r\n\r\n' +
      'data: first line\r\ndata: second line\r\n\r\n' +
      'id: 7\nevent: ping\ndata: 日本語\n\n';
    const server = await serve(async (_req, res) => {
      sse(res);
      for (const byte of Buffer.from(transcript)) {
        res.write(Buffer.from([byte]));
        await delay(1);
      }
      res.end();
    });

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/chat/completions`)));

    expect(error).toBeUndefined();
    expect(frames).toStrictEqual([
      { event: 'message_start', data: '{"text":"héllo 👋"}' },
      { data: 'first line\nsecond line' },
      { event: 'ping', data: '日本語' },
    ]);
  });

  test('sends the key in the headers and the body as JSON', async () => {
    const server = await serve((_req, res) => {
      sse(res);
      res.end('data: ok\n\n');
    });

    await drain(streamSse(request(`${server.url}/v1/chat/completions`)));

    const [seen] = server.seen;
    expect(seen?.method).toBe('POST');
    expect(seen?.headers.authorization).toBe(`Bearer ${canary}`);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ model: 'test-model', stream: true });
  });

  test('refuses a redirect without sending the key', async () => {
    const elsewhere = await serve((_req, res) => {
      res.end('data: stolen\n\n');
    });
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v1/collect?key=${canary}` });
      res.end();
    });
    const { opts, sleeps } = recorder();

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/chat/completions`), opts));

    expect(error?.code).toBe('http_status');
    expect(frames).toEqual([]);
    expect(elsewhere.seen).toHaveLength(0);
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(inspect(error)).not.toContain(String(elsewhere.port));
  });

  test('ignores a proxy installed as the global dispatcher', async () => {
    const proxy = await refusingProxy();
    const server = await serve((_req, res) => {
      sse(res);
      res.end('data: direct\n\n');
    });
    const previous = getGlobalDispatcher();
    setGlobalDispatcher(new ProxyAgent(proxy.url));
    cleanups.push(() => setGlobalDispatcher(previous));

    const { frames } = await drain(streamSse(request(`${server.url}/v1/chat/completions`)));

    expect(frames).toEqual([{ data: 'direct' }]);
    expect(proxy.asked).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  test('ignores HTTP_PROXY even when NODE_USE_ENV_PROXY is set', async () => {
    const proxy = await refusingProxy();
    const server = await serve((_req, res) => {
      sse(res);
      res.end('data: direct\n\n');
    });
    // A fresh Node, because NODE_USE_ENV_PROXY is only read at startup. The plain fetch is the control:
    // it shows the ambient proxy really is in force for anything that does not opt out.
    const script = `
      import { streamSse } from ${JSON.stringify(new URL('./transport.ts', import.meta.url).href)};
      const plain = await fetch(${JSON.stringify(`${server.url}/control`)}).catch(() => ({ status: 'failed' }));
      const frames = [];
      for await (const f of streamSse({ url: ${JSON.stringify(`${server.url}/v1/chat/completions`)},
        headers: {}, body: {}, keys: [], classify: () => ({ code: 'http_status' }) })) frames.push(f);
      console.log(JSON.stringify({ plain: plain.status, frames }));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--input-type=module', '--no-warnings', '-e', script],
        {
          env: { ...process.env, NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxy.url, NO_PROXY: '', no_proxy: '' },
          timeout: 8_000,
        },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );

    expect(JSON.parse(out)).toEqual({ plain: 'failed', frames: [{ data: 'direct' }] });
    expect(proxy.asked).toEqual([`CONNECT 127.0.0.1:${server.port}`]);
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/chat/completions']);
  });

  test('times out a stream that stalls after the first frame', async () => {
    const server = await serve((_req, res) => {
      sse(res);
      res.write('data: one\n\n');
    });

    const { frames, error } = await drain(
      streamSse(request(`${server.url}/v1/messages`), { idleTimeoutMs: 200 }),
    );

    expect(frames).toEqual([{ data: 'one' }]);
    expect(error?.code).toBe('timeout');
    // The idle limit, ours or undici's body timer set to the same gap: not the total limit (5 minutes).
    expect(['Nothing arrived for 200 ms.', 'UND_ERR_BODY_TIMEOUT']).toContain(error?.providerDetail);
  });

  test('times out a slow drip at the total limit even though no gap is long', async () => {
    const server = await serve(async (_req, res) => {
      sse(res);
      res.write('data: one\n\n');
      while (!res.destroyed) {
        res.write(': ping\n\n');
        await delay(20);
      }
    });

    const { frames, error } = await drain(
      streamSse(request(`${server.url}/v1/messages`), { idleTimeoutMs: 200, totalTimeoutMs: 400 }),
    );

    expect(frames).toEqual([{ data: 'one' }]);
    expect(error?.code).toBe('timeout');
    expect(error?.providerDetail).toBe('The whole request took longer than 400 ms.');
  });

  test('times out a server that accepts the connection but never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    const port = await listen(silent);
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      return close(silent);
    });

    const { error } = await drain(
      streamSse(request(`http://127.0.0.1:${port}/v1/messages`), { idleTimeoutMs: 200, maxAttempts: 1 }),
    );

    expect(error?.code).toBe('timeout');
    // The idle limit, ours or undici's headers timer set to the same gap: not the total limit (5 minutes).
    expect(['Nothing arrived for 200 ms.', 'UND_ERR_HEADERS_TIMEOUT']).toContain(error?.providerDetail);
    expect(sockets).toHaveLength(1);
  });

  test('retries a refused connection, then reports it as transport', async () => {
    const port = await closedPort();
    const { opts, sleeps, retries } = recorder();

    const { error } = await drain(streamSse(request(`http://127.0.0.1:${port}/v1/messages`), opts));

    expect(error?.code).toBe('transport');
    expect(error?.providerDetail).toBe('ECONNREFUSED');
    expect(sleeps).toEqual([500, 1_000]);
    expect(retries.map((r) => r.code)).toEqual(['transport', 'transport']);
  });

  test('times out a connection the server never accepts, at the connect limit', async () => {
    // A listener whose thread is blocked never calls accept(): once its backlog is full the kernel
    // drops further SYNs, which is what an unreachable host looks like to the client.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const server = require('node:net').createServer().listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
         parentPort.postMessage(server.address().port);
         setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 20);
       });`,
      { eval: true },
    );
    const fillers: net.Socket[] = [];
    cleanups.push(async () => {
      for (const socket of fillers) socket.destroy();
      await worker.terminate();
    });
    const port = await new Promise<number>((resolve) => worker.once('message', resolve));
    await delay(50);
    for (let i = 0; i < 8; i++) {
      const socket = net.connect(port, '127.0.0.1');
      fillers.push(socket);
      const connected = await Promise.race([
        new Promise((resolve) => socket.once('connect', () => resolve(true))),
        // Generous on a busy machine: a connect that is merely slow must not pass for a full backlog.
        delay(1_000).then(() => false),
      ]);
      if (!connected) break;
    }

    const { error } = await drain(
      streamSse(request(`http://127.0.0.1:${port}/v1/messages`), {
        connectTimeoutMs: 100,
        idleTimeoutMs: 5_000,
        maxAttempts: 1,
      }),
    );

    expect(error?.code).toBe('timeout');
    // The connect limit, not the idle one (5 s), which would be ours or UND_ERR_HEADERS_TIMEOUT.
    expect(error?.providerDetail).toBe('UND_ERR_CONNECT_TIMEOUT');
  });

  test('stops a stream that never ends at the byte budget', async () => {
    const server = await serve(async (_req, res) => {
      sse(res);
      const frame = `data: ${'x'.repeat(1_000)}\n\n`;
      while (!res.destroyed) {
        if (!res.write(frame)) {
          await new Promise((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
    });

    const { frames, error } = await drain(
      streamSse(request(`${server.url}/v1/messages`), { maxBytes: 64 * 1024 }),
    );

    expect(error?.code).toBe('response_too_large');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThanOrEqual(64);
  });

  test('refuses an unterminated 2 MiB line as malformed', async () => {
    const server = await serve((_req, res) => {
      sse(res);
      res.end(`data: ${'a'.repeat(2 * MiB)}`);
    });

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/messages`)));

    expect(frames).toEqual([]);
    expect(error?.code).toBe('malformed_stream');
  });

  test('accepts a long line that does end, under the line cap', async () => {
    const long = 'b'.repeat(512 * 1024);
    const server = await serve((_req, res) => {
      sse(res);
      res.end(`data: ${long}\n\n`);
    });

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/messages`)));

    expect(error).toBeUndefined();
    expect(frames).toEqual([{ data: long }]);
  });

  test('waits as long as retry-after says after a 429, then streams', async () => {
    const server = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
        res.end('{"error":{"type":"rate_limit_error"}}');
        return;
      }
      sse(res);
      res.end('data: ok\n\n');
    });
    const { opts, sleeps, retries } = recorder();

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/messages`), opts));

    expect(error).toBeUndefined();
    expect(frames).toEqual([{ data: 'ok' }]);
    expect(server.seen).toHaveLength(2);
    expect(sleeps).toEqual([2_000]);
    expect(retries).toEqual([{ attempt: 1, waitMs: 2_000, code: 'rate_limited' }]);
  });

  test('hands a 429 back with its wait when the caller schedules its own retries, and still retries a 503', async () => {
    const server = await serve((_req, res, n) => {
      res.writeHead(n === 2 ? 503 : 429, { 'retry-after': '3', 'content-type': 'application/json' });
      res.end('{"error":{"type":"rate_limit_error"}}');
    });
    const { opts, sleeps } = recorder();

    const limited = await drain(
      streamSse(request(`${server.url}/v1/messages`), { ...opts, retryRateLimited: false }),
    );
    expect(limited.error?.code).toBe('rate_limited');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);

    // The 503 (second request) is retried as always; the 429 after it is handed back.
    const unavailable = await drain(
      streamSse(request(`${server.url}/v1/messages`), { ...opts, retryRateLimited: false }),
    );
    expect(unavailable.error?.code).toBe('rate_limited');
    expect(server.seen).toHaveLength(3);
    expect(sleeps).toEqual([3_000]);
  });

  test('never retries a 429 that means the quota is spent', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}');
    });
    const { opts, sleeps } = recorder();

    const { error } = await drain(streamSse(request(`${server.url}/v1/chat/completions`), opts));

    expect(error?.code).toBe('quota_exceeded');
    expect(error?.message).toBe('The account has no quota or credit left at this service.');
    expect(error?.providerDetail).toContain('insufficient_quota');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('gives up on a service that fails three times, backing off 500 ms then 1 s', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500);
      res.end('{"error":"internal"}');
    });
    const { opts, sleeps } = recorder();

    const { error } = await drain(streamSse(request(`${server.url}/v1/messages`), opts));

    expect(error?.code).toBe('unavailable');
    expect(server.seen).toHaveLength(3);
    expect(sleeps).toEqual([500, 1_000]);
  });

  test('does not retry when the service says x-should-retry: false', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(503, { 'x-should-retry': 'false' });
      res.end();
    });
    const { opts, sleeps } = recorder();

    const { error } = await drain(streamSse(request(`${server.url}/v1/messages`), opts));

    expect(error?.code).toBe('unavailable');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('does not retry once a frame has reached the consumer', async () => {
    const server = await serve(async (req, res) => {
      sse(res);
      res.write('data: one\n\n');
      await delay(30);
      req.socket.resetAndDestroy();
    });
    const { opts, sleeps } = recorder();

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/messages`), opts));

    expect(frames).toEqual([{ data: 'one' }]);
    expect(error?.code).toBe('transport');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('retries a connection reset before the first frame', async () => {
    const server = await serve((req, res, n) => {
      if (n === 1) {
        req.socket.resetAndDestroy();
        return;
      }
      sse(res);
      res.end('data: second try\n\n');
    });
    const { opts, sleeps } = recorder();

    const { frames, error } = await drain(streamSse(request(`${server.url}/v1/messages`), opts));

    expect(error).toBeUndefined();
    expect(frames).toEqual([{ data: 'second try' }]);
    expect(sleeps).toEqual([500]);
  });

  test('reports a Stop mid-stream as cancelled', async () => {
    const server = await serve((_req, res) => {
      sse(res);
      res.write('data: one\n\n');
    });
    const stop = new AbortController();
    const frames: SseFrame[] = [];

    const error = await failure(
      (async () => {
        for await (const frame of streamSse(request(`${server.url}/v1/messages`, { signal: stop.signal }))) {
          frames.push(frame);
          stop.abort();
        }
      })(),
    );

    expect(frames).toEqual([{ data: 'one' }]);
    expect(error.code).toBe('cancelled');
  });

  test('ends a retry wait as soon as the user presses Stop', async () => {
    const stop = new AbortController();
    const server = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '30' });
      res.end();
    });
    // A wait that only Stop ends, as retry.ts's sleep ends on its signal: the run must hand it the signal.
    const steps: string[] = [];
    const untilStopped = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((_, reject) => {
        steps.push(`wait ${ms}`);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        setTimeout(() => {
          steps.push('stop');
          stop.abort();
        }, 20);
      });

    const { error } = await drain(
      streamSse(request(`${server.url}/v1/messages`, { signal: stop.signal }), { sleep: untilStopped }),
    );

    expect(steps).toEqual(['wait 30000', 'stop']);
    expect(error?.code).toBe('cancelled');
    expect(server.seen).toHaveLength(1);
  });

  test('sends nothing when Stop was pressed before the request', async () => {
    const server = await serve((_req, res) => {
      res.end();
    });

    const { error } = await drain(
      streamSse(request(`${server.url}/v1/messages`, { signal: AbortSignal.abort() })),
    );

    expect(error?.code).toBe('cancelled');
    expect(server.seen).toHaveLength(0);
  });

  test('keeps an echoed key out of every form of the error', async () => {
    const server = await serve((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }),
      );
    });

    const { error } = await drain(streamSse(request(`${server.url}/v1/chat/completions`)));

    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${canary}`);
    expect(error?.code).toBe('unauthorized');
    expect(error?.message).toBe('The service did not accept the API key.');
    expect(error?.providerDetail).toContain('[redacted]');
    for (const form of [
      error?.message,
      error?.providerDetail,
      JSON.stringify(error),
      String(error),
      error?.stack,
    ]) {
      expect(form).not.toContain(canary);
    }
    expect(inspect(error)).not.toContain(canary);
    expect(inspect(error)).not.toContain('canary');
  });

  test('drops the query from a URL the service echoes in its error', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(404);
      res.end(`No route for ${server.url}/v1/models?key=plain-secret-value&x=1`);
    });

    const { error } = await drain(streamSse(request(`${server.url}/v1/models?key=plain-secret-value`)));

    expect(error?.code).toBe('not_found');
    expect(error?.providerDetail).toContain(`${server.url}/v1/models?…`);
    expect(JSON.stringify(error)).not.toContain('plain-secret-value');
    expect(inspect(error)).not.toContain('plain-secret-value');
  });

  test('keeps the request URL out of a network failure', async () => {
    const port = await closedPort();

    const { error } = await drain(
      streamSse(request(`http://127.0.0.1:${port}/v1/models?key=plain-secret-value`), { maxAttempts: 1 }),
    );

    expect(error?.code).toBe('transport');
    expect(inspect(error)).not.toContain('plain-secret-value');
    expect(inspect(error)).not.toContain('?key=');
  });
});

describe('requestJson', () => {
  test('fetches a model list with a GET that carries no body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"gpt-test"}]}');
    });

    const body = await requestJson({ ...request(`${server.url}/v1/models`), method: 'GET' });

    expect(body).toEqual({ object: 'list', data: [{ id: 'gpt-test' }] });
    const [seen] = server.seen;
    expect(seen?.method).toBe('GET');
    expect(seen?.body).toBe('');
    expect(seen?.headers['content-type']).toBeUndefined();
    expect(seen?.headers.accept).toBe('application/json');
  });

  test('posts a JSON body and parses the JSON answer', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: req.headers['content-type'] }));
    });

    const body = await requestJson(request(`${server.url}/v1/decisions`));

    expect(body).toEqual({ echoed: 'application/json' });
    expect(JSON.parse(server.seen[0]?.body ?? '')).toEqual({ model: 'test-model', stream: true });
  });

  test('reports unparseable JSON as malformed, without retrying', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [');
    });
    const { opts, sleeps } = recorder();

    const error = await failure(requestJson(request(`${server.url}/v1/decisions`), opts));

    expect(error.code).toBe('malformed_stream');
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('refuses a JSON answer over the byte budget', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ pad: 'p'.repeat(2 * 1024) }));
    });

    const error = await failure(requestJson(request(`${server.url}/v1/decisions`), { maxBytes: 1024 }));

    expect(error.code).toBe('response_too_large');
  });

  test('retries a 503 and returns the answer that follows', async () => {
    const server = await serve((_req, res, n) => {
      res.writeHead(n === 1 ? 503 : 200, { 'content-type': 'application/json' });
      res.end(n === 1 ? '{"error":"overloaded"}' : '{"ok":true}');
    });
    const { opts, sleeps } = recorder();

    const body = await requestJson(request(`${server.url}/v1/decisions`), opts);

    expect(body).toEqual({ ok: true });
    expect(sleeps).toEqual([500]);
  });

  test('hands the caller the headers of the answer it returns, not of a retried failure', async () => {
    const server = await serve((_req, res, n) => {
      res.writeHead(n === 1 ? 503 : 200, { 'content-type': 'application/json', 'x-request-id': `req_${n}` });
      res.end(n === 1 ? '{"error":"overloaded"}' : '{"ok":true}');
    });
    const seen: { id: string | null; status: number }[] = [];
    const { opts } = recorder({
      onResponse: (headers, status) => seen.push({ id: headers.get('x-request-id'), status }),
    });

    await requestJson(request(`${server.url}/v1/decisions`), opts);

    expect(seen).toEqual([{ id: 'req_2', status: 200 }]);
  });

  test('does not report the headers of an answer it could not read, and survives a throwing callback', async () => {
    let n = 0;
    const server = await serve((_req, res) => {
      n++;
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${n}` });
      res.end(n === 1 ? '{"data": [' : '{"ok":true}');
    });
    const calls: string[] = [];
    const onResponse = (headers: Headers) => {
      calls.push(headers.get('x-request-id') ?? '');
      throw new Error('a UI callback that fails');
    };

    const error = await failure(requestJson(request(`${server.url}/v1/decisions`), { onResponse }));
    const body = await requestJson(request(`${server.url}/v1/decisions`), { onResponse });

    expect(error.code).toBe('malformed_stream');
    expect(body).toEqual({ ok: true });
    expect(calls).toEqual(['req_2']);
  });
});
