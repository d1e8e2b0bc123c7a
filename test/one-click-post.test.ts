// The one-click POST's own refusals against loopback HTTPS servers (issue 29 §3): a server whose certificate the
// app does not trust hears nothing past the TLS handshake (checks are never turned off), and one that accepts and
// never answers ends at the deadline with a sentence naming the host.
import { describe, expect, test } from 'vitest';
import { postOneClick } from '../electron/mail/unsubscribe/one-click-post.ts';
import { UnsubscribeError } from '../electron/mail/unsubscribe/unsubscribe-error.ts';
import { startHttpsServer } from './support/https-server.ts';
import { startTestCa } from './support/test-ca.ts';

const trusted = startTestCa();
const stranger = startTestCa();

async function failure(p: Promise<void>): Promise<UnsubscribeError> {
  const e = await p.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(e instanceof UnsubscribeError)) throw new Error(`expected an UnsubscribeError, got ${String(e)}`);
  return e;
}

describe('the one-click POST', () => {
  test('a certificate from a CA it was not given is refused, and the server reads no request', async () => {
    const web = await startHttpsServer(stranger, ['localhost']);
    web.serve('127.0.0.1', '/u', 'ok');
    const e = await failure(postOneClick(`https://127.0.0.1:${web.port}/u`, { ca: trusted.cert }));
    expect(e.reason).toBe('unreachable');
    expect(e.message).toBe(`127.0.0.1:${web.port} has no valid certificate, so nothing was sent to it.`);
    expect(web.received).toEqual([]);
  });

  test('a server that never answers ends at the deadline, naming the host', async () => {
    const web = await startHttpsServer(trusted, ['localhost']);
    web.serve('127.0.0.1', '/u', { body: '', hang: true });
    const e = await failure(
      postOneClick(`https://127.0.0.1:${web.port}/u`, { ca: trusted.cert, timeoutMs: 500 }),
    );
    expect(e.message).toBe(`127.0.0.1:${web.port} did not answer within 0.5 seconds.`);
    // It did get the request: the deadline, not a refusal, ended it.
    expect(web.received.map((r) => r.method)).toEqual(['POST']);
  });

  test('an http address is never requested', async () => {
    const e = await failure(postOneClick('http://127.0.0.1:9/u'));
    expect(e.reason).toBe('redirect');
  });
});
