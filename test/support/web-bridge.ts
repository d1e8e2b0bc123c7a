// A bridge socket to a browser-mode server (electron/web/server.ts), opened the way a browser opens it:
// the printed address first, for the session cookie, then the socket with that cookie from the page's origin.
import { request } from 'node:http';
import WebSocket from 'ws';
import type { Served } from '../../electron/web/server.ts';
import type { WsCall } from '../../shared/ws-protocol.ts';

export type Reply = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One GET to the server, with the Host header a browser on 127.0.0.1 would send unless told otherwise. */
export function get(served: Served, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: served.port,
        path,
        headers: { host: `127.0.0.1:${served.port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens an address the server printed; the session cookie it sets (`name=value`), or null. */
export async function openAddress(served: Served, url: string, cookie?: string): Promise<string | null> {
  const { pathname, search } = new URL(url);
  const reply = await get(served, `${pathname}${search}`, cookie ? { cookie } : {});
  const set = reply.headers['set-cookie']?.[0];
  return set ? (set.split(';')[0] ?? null) : null;
}

const sessions = new WeakMap<Served, Promise<string | null>>();

/** This test's session with the server: the printed address, opened once. */
export function sessionCookie(served: Served): Promise<string | null> {
  let cookie = sessions.get(served);
  if (!cookie) {
    cookie = openAddress(served, served.url);
    sessions.set(served, cookie);
  }
  return cookie;
}

export async function openBridge(
  served: Served,
  options: { cookie?: string | null; origin?: string; host?: string; path?: string } = {},
): Promise<WebSocket> {
  const cookie = options.cookie === undefined ? await sessionCookie(served) : options.cookie;
  const ws = new WebSocket(`ws://127.0.0.1:${served.port}${options.path ?? '/bridge'}`, {
    origin: options.origin ?? `http://127.0.0.1:${served.port}`,
    headers: { ...(cookie ? { cookie } : {}), ...(options.host ? { host: options.host } : {}) },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });
}

/** Sends one call and resolves with the envelope of its reply; rejects if the socket closes first. */
export function callOver(ws: WebSocket, call: WsCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onClose = (code: number) => reject(new Error(`the socket closed (${code}) before the reply`));
    const onMessage = (data: WebSocket.RawData) => {
      const reply = JSON.parse(data.toString()) as { id?: number; response?: unknown };
      if (reply.id === call.id) {
        ws.off('message', onMessage);
        ws.off('close', onClose);
        resolve(reply.response);
      }
    };
    ws.on('message', onMessage);
    ws.once('close', onClose);
    ws.send(JSON.stringify(call));
  });
}
