// Browser mode (DESIGN §13): the built renderer over HTTP on loopback and the same bridge over one
// WebSocket. The page URL carries a random token in its fragment (never sent in a request line, so never
// in a log); the socket must present it, from our own origin, addressed to our own host.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { isLoopback } from '../../shared/loopback.ts';
import { maxFrameBytes, WsCall, type WsReply, wsPath } from '../../shared/ws-protocol.ts';
import { type App, projectRoot } from '../app.ts';
import { contentType, resolveInside } from '../app-protocol.ts';
import { dispatch } from '../bridge/dispatch.ts';
import { appCsp } from '../csp.ts';

export const rendererDir = join(projectRoot, 'dist', 'renderer');

export type Served = { url: string; port: number; close(): Promise<void> };

export async function serve(
  app: App,
  options: { port?: number; host?: string; root?: string } = {},
): Promise<Served> {
  const root = options.root ?? rendererDir;
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error('The app is not built yet: run `npm run build` first.');
  }
  const host = options.host ?? '127.0.0.1';
  // SECURITY: loopback only. Anything else would put the user's mail on the network.
  if (!isLoopback(host)) throw new Error('Skimmer serves only on a loopback address.');
  const token = randomBytes(24).toString('base64url');
  let port = 0;

  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, port)) return plain(res, 421, 'Wrong host.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = resolveInside(root, path);
    if (!file || !existsSync(file) || !statSync(file).isFile()) return plain(res, 404, 'Not found.');
    res.writeHead(200, {
      'content-type': contentType(file),
      // The bridge's socket is the page's own loopback port and nothing else.
      'content-security-policy': appCsp([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    // A reset before the handshake is that socket's end, not the server's; `ws` listens from the handshake on.
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    // SECURITY: Host (no DNS rebinding), Origin (no other site's page) and token, before the upgrade.
    if (!upgradeAllowed(req, port, token)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.off('error', dropped);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws) => {
    // SECURITY: a frame over maxFrameBytes, bad UTF-8 or a broken frame is an `error` on this socket, which
    // `ws` then closes (1009 for the size). Without a listener that error would end the whole process, and
    // with it the outbox and background sync. The log gets `ws`'s own sentence, never the frame.
    ws.on('error', (e) => app.log.error('bridge_socket', e));
    const send = (reply: WsReply) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
    };
    const unlisten = app.streams.listen((stream) => send({ stream }));
    // A watch stream lives as long as the page that asked for it; imports and answers go on without it.
    const watches = new Set<string>();
    ws.on('close', () => {
      unlisten();
      for (const id of watches) app.streams.cancel(id);
    });
    ws.on('message', async (data, isBinary) => {
      let call: WsCall;
      try {
        if (isBinary) throw new Error('binary');
        call = WsCall.parse(JSON.parse(data.toString()));
      } catch {
        ws.close(1008, 'Malformed request');
        return;
      }
      const response = await dispatch(app.handlers, call.channel, call.request, true, (channel, e) =>
        app.log.error(`bridge_${channel}`, e),
      );
      if (call.channel === 'account:watch' && response.ok)
        watches.add((response.value as { streamId: string }).streamId);
      send({ id: call.id, response });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  port = (server.address() as AddressInfo).port;
  server.on('error', (e) => app.log.error('web_server', e));
  wss.on('error', (e) => app.log.error('bridge_server', e));
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/#token=${token}`,
    port,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(hostHeader.toLowerCase());
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  if (!origin) return false;
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(
    origin.toLowerCase(),
  );
}

export function upgradeAllowed(req: IncomingMessage, port: number, token: string): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== wsPath) return false;
  if (!hostAllowed(req.headers.host, port) || !originAllowed(req.headers.origin, port)) return false;
  return tokenMatches(url.searchParams.get('token'), token);
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
