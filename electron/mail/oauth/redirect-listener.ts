// The loopback redirect of one sign-in (RFC 8252 §7.3, issue 28): an HTTP listener on 127.0.0.1 and a port the
// system picks for this sign-in alone, at `http://127.0.0.1:PORT/`. It takes one redirect: the first request
// to `/` with this sign-in's `state` ends it, with the code or the provider's error, and the listener closes;
// the browser is told in a page of our own whether to close the tab or what went wrong.
//
// SECURITY: any local process or web page can request a loopback port, so a redirect counts only with this
// sign-in's `state` (random, 128 bits from oauth4webapi): a request without it, or with another, is answered
// with a sentence and ends the sign-in as failed (someone is trying to inject a code; a person retries). The
// code itself is never logged nor put in an answer or an error.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError } from './oauth-error.ts';

type Redirect = { params: URLSearchParams };

export type RedirectListener = {
  /** `http://127.0.0.1:PORT/`, the redirect_uri of this sign-in. */
  redirectUri: string;
  /** Resolves with the redirect's parameters once it came (checked state); rejects with an OAuthError. */
  result: Promise<Redirect>;
  /** The state the authorization request carries; until it is set every redirect is refused. */
  expect(state: string): void;
  /** Ends the wait (cancelled), closing the listener; a redirect after it is refused. */
  close(reason?: OAuthError): void;
};

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family: system-ui, sans-serif; margin: 3em"><h1>${title}</h1><p>${text}</p></body></html>`;

function answer(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page is ours and static: nothing in it runs or loads anything.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(page(title, text));
}

/** Starts the listener for one sign-in; `expect()` then names the state its authorization request carries. */
export async function listenForRedirect(timeoutMs: number): Promise<RedirectListener> {
  let state: string | null = null;
  let settle: { resolve: (r: Redirect) => void; reject: (e: OAuthError) => void } | null = null;
  const result = new Promise<Redirect>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may have to handle it (a sign-in abandoned before anyone awaited it).
  result.catch(() => {});
  let done = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/') {
      answer(res, 404, 'Not found', 'This address only takes the sign-in’s redirect.');
      return;
    }
    if (done) {
      answer(res, 410, 'Already used', 'This sign-in has already ended; start it again in Skimmer.');
      return;
    }
    const params = url.searchParams;
    if (state === null || params.get('state') !== state) {
      answer(
        res,
        400,
        'Not this sign-in',
        'This redirect was not for the sign-in Skimmer started; start it again in Skimmer.',
      );
      finish(
        new OAuthError(
          'state',
          'The sign-in was refused: the redirect did not carry this sign-in’s state (an old tab, or another program); nothing was saved. Sign in again.',
        ),
      );
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      answer(res, 200, 'Sign-in not finished', 'The provider did not sign you in. You can close this tab.');
    } else {
      answer(res, 200, 'Signed in', 'You can close this tab and go back to Skimmer.');
    }
    finish({ params });
  });

  const finish = (outcome: Redirect | OAuthError) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    // The one redirect is taken: the listener goes as soon as its answer is written.
    server.close();
    server.closeIdleConnections();
    if (outcome instanceof OAuthError) settle?.reject(outcome);
    else settle?.resolve(outcome);
  };

  const timer = setTimeout(
    () =>
      finish(
        new OAuthError(
          'timeout',
          `The sign-in was not finished within ${Math.round(timeoutMs / 60_000)} minutes; nothing was saved. Sign in again.`,
        ),
      ),
    timeoutMs,
  );
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // SECURITY: 127.0.0.1 only, never every interface: the redirect never leaves this computer (RFC 8252 §8.3).
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/`,
    result,
    expect(s) {
      state = s;
    },
    close: (reason) =>
      finish(reason ?? new OAuthError('cancelled', 'The sign-in was stopped; nothing was saved.')),
  };
}
