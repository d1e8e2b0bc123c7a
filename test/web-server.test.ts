// Browser mode over real loopback sockets: static files with the CSP header, and the bridge WebSocket
// that only our own page (token, Origin, Host) may open.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../electron/app.ts';
import { type Served, serve } from '../electron/web/server.ts';
import { channels, envelope } from '../shared/contract.ts';
import { isLoopback } from '../shared/loopback.ts';
import { tempDir } from './support/temp.ts';

// The served folder and, right beside it, a file no request may reach.
const parent = tempDir();
const root = join(parent, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Skimmer</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(parent, 'outside.txt'), 'secret-outside');

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let token: string;
let origin: string;

beforeAll(async () => {
  served = await serve(app, { root });
  token = new URL(served.url).hash.replace('#token=', '');
  origin = `http://127.0.0.1:${served.port}`;
});
afterAll(async () => {
  await served.close();
  await app.close();
});

function get(path: string, host = `127.0.0.1:${served.port}`) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: served.port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

function connect(opts: { token?: string; origin?: string; host?: string }) {
  const ws = new WebSocket(`ws://127.0.0.1:${served.port}/bridge?token=${opts.token ?? token}`, {
    origin: opts.origin ?? origin,
    headers: opts.host ? { host: opts.host } : {},
  });
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });
}

function callOver(ws: WebSocket, id: number, channel: string, req: unknown) {
  return new Promise<unknown>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString());
      if (msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.response);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, channel, request: req }));
  });
}

describe('browser mode server', () => {
  test('puts the token in the URL fragment, which browsers never send', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{32}$/);
  });

  test('serves the app with a strict CSP that allows only its own socket', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${served.port}`);
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test('refuses another Host header (DNS rebinding) and paths outside the app', async () => {
    expect((await get('/', `evil.example.net:${served.port}`)).status).toBe(421);
    expect((await get('/assets/app.js')).body).toBe('console.log(1)');
    for (const path of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/..%2foutside.txt',
      '/assets/..%2f..%2foutside.txt',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('secret-outside');
    }
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });

  test.each([
    ['a wrong token', { token: 'x'.repeat(32) }],
    ['no token', { token: '' }],
    ['another origin', { origin: 'https://evil.example.net' }],
    ['another host', { host: `evil.example.net:1234` }],
  ])('refuses a bridge socket with %s', async (_name, opts) => {
    await expect(connect(opts)).rejects.toThrow('status 403');
  });

  test('answers bridge calls with contract envelopes', async () => {
    const ws = await connect({});
    const info = await callOver(ws, 1, 'app:info', {});
    expect(envelope(channels['app:info'].response).parse(info)).toMatchObject({
      ok: true,
      value: { mode: 'browser' },
    });
    expect(await callOver(ws, 2, 'mail:nope', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await callOver(ws, 3, 'mail:search', { query: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    ws.close();
  });

  test('ends the watch streams of a page when its socket closes, and only those', async () => {
    const ws = await connect({});
    const before = app.streams.running();
    expect(await callOver(ws, 1, 'account:watch', {})).toMatchObject({ ok: true });
    expect(app.streams.running()).toBe(before + 1);
    ws.close();
    await expect.poll(() => app.streams.running()).toBe(before);
  });

  test('closes a socket that sends something that is not a call', async () => {
    const ws = await connect({});
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('not json');
    expect(await closed).toBe(1008);
  });

  test('delivers stream events to the page', async () => {
    const ws = await connect({});
    const streams: unknown[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.stream) streams.push(m.stream);
    });
    const res = (await callOver(ws, 9, 'mail:import', { paths: ['/nonexistent/x'] })) as {
      value: { streamId: string };
    };
    // Progress events may come first; the stream ends with import_done.
    await expect
      .poll(() => (streams.at(-1) as { event?: { type?: string } } | undefined)?.event?.type)
      .toBe('import_done');
    expect(streams.at(-1)).toMatchObject({ streamId: res.value.streamId, event: { type: 'import_done' } });
    ws.close();
  });

  test('serves on loopback only', async () => {
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('192.168.1.2')).toBe(false);
    expect(isLoopback('127.0.0.1')).toBe(true);
    await expect(serve(app, { root, host: '0.0.0.0' })).rejects.toThrow('loopback');
  });
});
