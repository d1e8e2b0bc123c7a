// Browser mode (DESIGN §13): the built renderer over HTTP on loopback and the same bridge over one
// WebSocket. The printed address trades a one-time token for a session cookie (browser-access.ts); the
// socket must present that cookie, from our own origin, addressed to our own host.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { attachmentPath, attachmentsZipPath } from '../../shared/attachment-urls.ts';
import { isLoopback, servedHostnames } from '../../shared/loopback.ts';
import { maxFrameBytes, WsCall, type WsReply, wsPath } from '../../shared/ws-protocol.ts';
import { type App, projectRoot } from '../app.ts';
import { contentType, resolveInside } from '../app-protocol.ts';
import { dispatch } from '../bridge/dispatch.ts';
import { appCsp, socketSources } from '../csp.ts';
import { serveAttachment } from './attachment-download.ts';
import { type BrowserAccess, browserAccess, openPath } from './browser-access.ts';

export const rendererDir = join(projectRoot, 'dist', 'renderer');

export type Served = {
  /** The address to open now; it works once (electron/web/browser-access.ts). */
  readonly url: string;
  port: number;
  close(): Promise<void>;
};

export async function serve(
  app: App,
  options: {
    port?: number;
    host?: string;
    root?: string;
    /** After a browser opened the printed address: the address for the next one (the old one is spent). */
    onOpened?: (next: string) => void;
  } = {},
): Promise<Served> {
  const root = options.root ?? rendererDir;
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error('The app is not built yet: run `npm run build` first.');
  }
  const host = options.host ?? '127.0.0.1';
  // SECURITY: loopback only. Anything else would put the user's mail on the network.
  if (!isLoopback(host)) throw new Error('Skimmer serves only on a loopback address.');
  let port = 0;
  const access = browserAccess(() => port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const address = () => `http://${shownHost}:${port}${openPath}?token=${access.token()}`;

  const server = createServer((req, res) => {
    // SECURITY: only origin-form targets (`/path`). An absolute-form one (`GET http://evil.example/…`) names
    // another host than the Host header this server checks.
    if (!originForm(req.url)) return plain(res, 400, 'Bad request.');
    if (!hostAllowed(req.headers.host, port)) return plain(res, 421, 'Wrong host.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === openPath) return open(req, res, url);
    if (url.pathname === attachmentPath || url.pathname === attachmentsZipPath) {
      // SECURITY: the bytes of the user's mail: the same session as the bridge's socket, or nothing.
      if (!access.admits(req.headers.cookie))
        return plain(res, 403, 'Open the address Skimmer printed first.');
      return void serveAttachment(req, res, url, app.attachments, (e) =>
        app.log.error('attachment_download', e),
      );
    }
    const file = resolveInside(root, url.pathname);
    if (!file || !existsSync(file) || !statSync(file).isFile()) return plain(res, 404, 'Not found.');
    res.writeHead(200, {
      'content-type': contentType(file),
      // The bridge's socket is the page's own loopback port and nothing else.
      'content-security-policy': appCsp(socketSources(servedHostnames, port)),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });

  // The printed address: its token buys this browser a session cookie, once, and the browser goes on to the
  // app without the token in its address bar. A browser that has a session goes on whatever it opened.
  function open(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method !== 'GET') return plain(res, 405, 'Method not allowed.');
    const cookie = access.exchange(url.searchParams.get('token'));
    if (!cookie && !access.admits(req.headers.cookie)) {
      return plain(
        res,
        403,
        'This address no longer opens Skimmer: each address it prints works once, in one browser. ' +
          'Use the newest address `skimmer serve` printed.',
      );
    }
    res.writeHead(303, {
      location: '/',
      ...(cookie ? { 'set-cookie': cookie } : {}),
      // Neither the token nor the cookie goes into the browser's cache.
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
    if (cookie) options.onOpened?.(address());
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    // A reset before the handshake is that socket's end, not the server's; `ws` listens from the handshake on.
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    if (!originForm(req.url)) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    // SECURITY: Host (no DNS rebinding), Origin (no other site's page) and session, before the upgrade.
    if (!upgradeAllowed(req, port, access)) {
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
  return {
    get url() {
      return address();
    },
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

function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return servedHostnames.some((name) => hostHeader.toLowerCase() === `${name}:${port}`);
}

function originAllowed(origin: string | undefined, port: number): boolean {
  if (!origin) return false;
  return servedHostnames.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

// RFC 9112 §3.2.1: a request to an origin server names its target as an absolute path and a query. `//x`
// would parse as another host too.
function originForm(target: string | undefined): boolean {
  return (target?.startsWith('/') ?? false) && !target?.startsWith('//');
}

function upgradeAllowed(req: IncomingMessage, port: number, access: BrowserAccess): boolean {
  if (new URL(req.url ?? '/', 'http://x').pathname !== wsPath) return false;
  if (!hostAllowed(req.headers.host, port) || !originAllowed(req.headers.origin, port)) return false;
  return access.admits(req.headers.cookie);
}
