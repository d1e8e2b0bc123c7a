// Mail servers that speak TLS with certificates from the test CA, for probes that check TLS for real:
// `tlsFront` puts implicit TLS in front of a plain server (the test Dovecot, which runs with ssl = no), as a
// TLS-terminating proxy would; `startTlsSmtp` is smtp-server with implicit TLS or with STARTTLS.

import type { AddressInfo } from 'node:net';
import { connect, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';
import type { TestCa } from './test-ca.ts';

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port where TLS (for `names`) is ended and the bytes go on to 127.0.0.1:`port`. */
export async function tlsFront(ca: TestCa, names: string[], port: number): Promise<number> {
  const server = createTlsServer(ca.issue(names), (client) => {
    const upstream = connect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return listening(server);
}

/** smtp-server with implicit TLS (`tls`) or STARTTLS offered after EHLO (`starttls`), or neither (`plain`). */
export async function startTlsSmtp(ca: TestCa | null, names: string[], mode: 'tls' | 'starttls' | 'plain') {
  const server = new SMTPServer({
    ...(ca ? ca.issue(names) : {}),
    secure: mode === 'tls',
    ...(mode === 'plain' ? { disabledCommands: ['STARTTLS'] } : {}),
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 50,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return port;
}
