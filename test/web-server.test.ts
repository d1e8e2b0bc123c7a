// Browser mode over real loopback sockets: static files with the CSP header, the printed address that
// trades its one-time token for a session cookie, and the bridge WebSocket that only our own page (session,
// Origin, Host) may open.
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type Served, serve } from '../electron/web/server.ts';
import { channels, envelope } from '../shared/contract/index.ts';
import { isLoopback } from '../shared/loopback.ts';
import { tempDir } from './support/temp.ts';
import { callOver, get as getFrom, openAddress, openBridge, sessionCookie } from './support/web-bridge.ts';

// The served folder and, right beside it, a file no request may reach.
const parent = tempDir();
const root = join(parent, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Skimmer</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(parent, 'outside.txt'), 'secret-outside');

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
const opened: string[] = [];

beforeAll(async () => {
  served = await serve(app, { root, onOpened: (next) => opened.push(next) });
});
afterAll(async () => {
  await served.close();
  await app.close();
});

function get(path: string, host = `127.0.0.1:${served.port}`) {
  return getFrom(served, path, { host });
}

function connect(opts: { cookie?: string | null; origin?: string; host?: string; path?: string }) {
  return openBridge(served, opts);
}

// The status line a raw request gets: what Node's own client would never send.
function rawStatus(lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(served.port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      got += chunk;
      if (got.includes('\r\n')) {
        socket.destroy();
        resolve(got.slice(0, got.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
  });
}

describe('browser mode server', () => {
  test('prints an address whose token opens one browser session and is then spent', async () => {
    const printed = served.url;
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bridge\/open\?token=[A-Za-z0-9_-]{32}$/);
    const first = await get(new URL(printed).pathname + new URL(printed).search);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(first.headers['cache-control']).toBe('no-store');
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(
      new RegExp(`^skimmer-${served.port}=[A-Za-z0-9_-]{32}; Path=/bridge; HttpOnly; SameSite=Strict$`),
    );
    // The same address again, without the session: refused, and no second session.
    const again = await get(new URL(printed).pathname + new URL(printed).search);
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    // The next browser gets a new address, and the command hears of it.
    expect(served.url).not.toBe(printed);
    expect(opened.at(-1)).toBe(served.url);
    expect(await openAddress(served, served.url)).toMatch(/^skimmer-\d+=/);
  });

  test('sends a browser that has a session on to the app when it opens a spent address', async () => {
    const cookie = await sessionCookie(served);
    const spent = await get(`/bridge/open?token=${'x'.repeat(32)}`);
    expect(spent.status).toBe(403);
    const withSession = await getFrom(served, `/bridge/open?token=${'x'.repeat(32)}`, {
      cookie: cookie ?? '',
    });
    expect(withSession.status).toBe(303);
    expect(withSession.headers['set-cookie']).toBeUndefined();
  });

  test('refuses an absolute-form request target, for a page and for the bridge', async () => {
    const host = `Host: 127.0.0.1:${served.port}`;
    expect(await rawStatus([`GET /assets/app.js HTTP/1.1`, host])).toBe('HTTP/1.1 200 OK');
    expect(await rawStatus([`GET http://evil.example/assets/app.js HTTP/1.1`, host])).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    expect(await rawStatus([`GET //evil.example/assets/app.js HTTP/1.1`, host])).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    const upgrade = [
      host,
      `Origin: http://127.0.0.1:${served.port}`,
      `Cookie: ${await sessionCookie(served)}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ];
    // The same handshake in origin form is upgraded: only the target makes the difference.
    expect(await rawStatus(['GET /bridge HTTP/1.1', ...upgrade])).toBe('HTTP/1.1 101 Switching Protocols');
    expect(await rawStatus(['GET http://evil.example/bridge HTTP/1.1', ...upgrade])).toBe(
      'HTTP/1.1 400 Bad Request',
    );
  });

  test.each([
    ['127.0.0.1', (port: number) => `ws://127.0.0.1:${port}`],
    ['localhost', (port: number) => `ws://localhost:${port}`],
    // CSP cannot write an IPv6 literal; 'self' is the page's own host and port, ws: too (CSP3 §6.7.2.8).
    ['[::1]', () => "'self'"],
  ])('lets a page opened at %s connect to the bridge, by origin and by CSP alike', async (name, source) => {
    const csp = String((await get('/', `${name}:${served.port}`)).headers['content-security-policy']);
    const connectSrc = csp
      .split('; ')
      .find((d) => d.startsWith('connect-src'))
      ?.split(' ');
    expect(connectSrc).toContain(source(served.port));
    // Chromium logs a source it cannot read on every load, and ignores it.
    expect(connectSrc?.some((s) => s.includes('['))).toBe(false);
    const ws = await connect({ origin: `http://${name}:${served.port}` });
    ws.close();
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
    ['a made-up session', () => ({ cookie: `skimmer-${served.port}=${'x'.repeat(32)}` })],
    ['no session', () => ({ cookie: null })],
    [
      'the unspent token instead of a session',
      () => ({ cookie: null, path: `/bridge?${new URL(served.url).search.slice(1)}` }),
    ],
    ['another origin', () => ({ origin: 'https://evil.example.net' })],
    ['another host', () => ({ host: `evil.example.net:1234` })],
  ])('refuses a bridge socket with %s', async (_name, opts) => {
    await expect(connect(opts())).rejects.toThrow('status 403');
  });

  test('answers bridge calls with contract envelopes', async () => {
    const ws = await connect({});
    const info = await callOver(ws, { id: 1, channel: 'app:info', request: {} });
    expect(envelope(channels['app:info'].response).parse(info)).toMatchObject({
      ok: true,
      value: { mode: 'browser' },
    });
    expect(await callOver(ws, { id: 2, channel: 'mail:nope', request: {} })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await callOver(ws, { id: 3, channel: 'mail:search', request: { query: '' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    ws.close();
  });

  test('ends the watch streams of a page when its socket closes, and only those', async () => {
    const ws = await connect({});
    const before = app.streams.running();
    expect(await callOver(ws, { id: 1, channel: 'account:watch', request: {} })).toMatchObject({ ok: true });
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
    const res = (await callOver(ws, {
      id: 9,
      channel: 'mail:import',
      request: { paths: ['/nonexistent/x'] },
    })) as {
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
