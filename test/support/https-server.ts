// An HTTPS server of the tests' own on 127.0.0.1, with a certificate from the test CA for the names it serves, and
// a plain HTTP one beside it: each answers from a table of paths the test writes (`serve`), per Host, so one
// server stands for autoconfig.example.test and example.test/.well-known alike. Unknown paths are 404.
import {
  createServer as createHttp,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { TestCa } from './test-ca.ts';

// `hang`: the request is read and never answered (a server that accepts and stalls), until the server closes.
type Answer = { status?: number; body: string | Buffer; headers?: Record<string, string>; hang?: boolean };
/** A request as it arrived: what an unsubscribe test checks was (and was not) sent. */
type Received = {
  method: string;
  host: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
};
export type WebServer = {
  port: number;
  /** What `GET http(s)://HOST:port/PATH` answers: a body (200) or a status and headers (a redirect). */
  serve(host: string, path: string, answer: string | Answer): void;
  /** Every request, `HOST PATH`, in order. */
  requests: string[];
  /** Every request whole (method, headers, body), in order, once its body has arrived. */
  received: Received[];
};

function handler(routes: Map<string, Answer>, requests: string[], received: Received[]) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(`${host} ${path}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      method: req.method ?? '',
      host,
      path,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const answer = routes.get(`${host} ${path}`);
    if (!answer) {
      res.writeHead(404).end('not here');
      return;
    }
    if (answer.hang) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/xml', ...answer.headers });
    res.end(answer.body);
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // a stalled request would keep close() waiting
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

function webServer(make: (h: ReturnType<typeof handler>) => Server): Promise<WebServer> {
  const routes = new Map<string, Answer>();
  const requests: string[] = [];
  const received: Received[] = [];
  const server = make(handler(routes, requests, received));
  return listen(server).then((port) => ({
    port,
    requests,
    received,
    serve(host, path, answer) {
      routes.set(`${host.toLowerCase()} ${path}`, typeof answer === 'string' ? { body: answer } : answer);
    },
  }));
}

export function startHttpsServer(ca: TestCa, names: string[]): Promise<WebServer> {
  const { key, cert } = ca.issue(names);
  return webServer((h) => createHttps({ key, cert }, h));
}

export function startHttpServer(): Promise<WebServer> {
  return webServer((h) => createHttp(h));
}
