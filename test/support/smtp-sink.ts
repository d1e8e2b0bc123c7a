// A real SMTP server on loopback that keeps every message it accepts, for tests of sending. It is
// smtp-server (the server half of nodemailer) as tried in ../shared/reference/feasibility.md §B: no
// STARTTLS, no reverse DNS, AUTH PLAIN/LOGIN over plaintext when a user is given.
//
// smtp-server waits 100 ms after every new connection before its greeting, to catch clients that talk
// too early (smtp-connection.js, init()). A client that connects per message manages about 9 msg/s;
// nodemailer with `pool: true` reached 57–61 msg/s in feasibility.md. Callers that send many should pool.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

type SmtpMessage = { from: string; to: string[]; raw: Buffer; user?: string };

export type SmtpSink = {
  host: '127.0.0.1';
  port: number;
  /** Every message accepted, in the order its DATA ended. */
  received: SmtpMessage[];
  /** Resolves with `received` once it holds at least n messages; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs?: number): Promise<SmtpMessage[]>;
  /** Stops listening and drops open connections (421 first), so pooled clients cannot hold it open. */
  close(): Promise<void>;
};

// `oauth2`: AUTH XOAUTH2 too, the token checked at the provider's introspection endpoint (test/support/oidc.ts
// `introspect`): active, and issued to the user the client names. Without `user`, only XOAUTH2 logs in.
export async function startSmtpSink(
  opts: {
    user?: string;
    pass?: string;
    oauth2?: { introspect: (token: string) => Promise<{ active: boolean; sub?: string }> };
  } = {},
): Promise<SmtpSink> {
  const requireAuth = opts.user !== undefined || opts.oauth2 !== undefined;
  const received: SmtpMessage[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    // No TLS at all: a STARTTLS offer would make nodemailer upgrade with a certificate we do not have.
    disabledCommands: requireAuth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    authOptional: !requireAuth,
    authMethods: opts.oauth2 ? ['PLAIN', 'LOGIN', 'XOAUTH2'] : ['PLAIN', 'LOGIN'],
    // smtp-server answers AUTH without TLS with 538 unless told otherwise; loopback is our "TLS".
    allowInsecureAuth: true,
    logger: false,
    // close() waits this long before it drops idle connections (default 30 s).
    closeTimeout: 50,
    onAuth(auth, _session, callback) {
      if (auth.method === 'XOAUTH2' && opts.oauth2) {
        opts.oauth2.introspect(auth.accessToken ?? '').then(
          (t) => {
            if (t.active && t.sub === auth.username) callback(null, { user: auth.username ?? '' });
            // smtp-server's XOAUTH2 refusal: a 334 with the error as JSON, then 535 (Google's way).
            else callback(null, { data: { status: '401', schemes: 'bearer', scope: 'mail' } });
          },
          (e: unknown) => callback(e as Error),
        );
        return;
      }
      if (opts.user !== undefined && auth.username === opts.user && auth.password === opts.pass) {
        callback(null, { user: auth.username ?? '' });
        return;
      }
      // No responseCode: smtp-server answers 535 5.7.8 (sasl.js), as real servers do.
      callback(new Error('Authentication credentials invalid'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((a) => a.address),
          raw: Buffer.concat(chunks),
          ...(session.user ? { user: String(session.user) } : {}),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    received,
    waitFor(n, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < n) return;
          cleanup();
          resolve(received);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the SMTP sink got ${received.length} of ${n} messages in ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
