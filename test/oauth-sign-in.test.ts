// A sign-in with OAuth 2.0 against a real OpenID provider on loopback (oidc-provider, test/support/oidc.ts), the
// person's part played by a script of the browser: discovery, PKCE S256, state, the loopback redirect, the code
// exchange, a refresh; and each way it fails is a sentence (issue 28).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { discover, refreshTokens } from '../electron/mail/oauth/oauth-client.ts';
import { OAuthError } from '../electron/mail/oauth/oauth-error.ts';
import { planFor, startSignIn } from '../electron/mail/oauth/sign-in.ts';
import { startOidc } from './support/oidc.ts';
import { startTestCa } from './support/test-ca.ts';

const failureOf = async (p: Promise<unknown>): Promise<OAuthError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof OAuthError) return e;
    throw e;
  }
  throw new Error('it did not fail');
};

describe('OAuth sign-in', () => {
  it('discovers the issuer, signs in with PKCE and the loopback redirect, and refreshes', async () => {
    const idp = await startOidc();
    const plan = await planFor(idp.issuer);
    expect(plan.server.tokenEndpoint).toBe(`${idp.issuer}/token`);
    const pending = await startSignIn(plan, { clientId: idp.clientId });
    const url = new URL(pending.authorizeUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await idp.authorize(pending.authorizeUrl, { user: 'ana@example.com' });
    expect(page.body).toContain('You can close this tab');
    const tokens = await pending.tokens;
    expect(await idp.introspect(tokens.accessToken)).toMatchObject({ active: true, sub: 'ana@example.com' });
    // The listener took its one redirect and is gone.
    await expect(fetch(page.url)).rejects.toThrow();

    const next = await refreshTokens(plan.server, { clientId: idp.clientId }, tokens.refreshToken);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    // oidc-provider rotates a public client's refresh token, as Microsoft does.
    expect(next.refreshToken).toBeTruthy();
    expect(await idp.introspect(next.accessToken)).toMatchObject({ active: true });
  });

  it('over HTTPS, trusts the provider only with the CA it was given, and signs in and refreshes through it', async () => {
    const ca = startTestCa();
    const idp = await startOidc({ ca });
    expect(idp.issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // Without the CA the certificate is not trusted: a sentence, and nothing is sent.
    const untrusted = await failureOf(planFor(idp.issuer));
    expect(untrusted.reason).toBe('unreachable');
    expect(untrusted.message).toMatch(/certificate this computer does not trust/);
    expect(idp.tokenRequests).toEqual({ authorization_code: 0, refresh_token: 0 });
    // Another CA is no better.
    const other = await failureOf(planFor(idp.issuer, undefined, { ca: startTestCa().cert }));
    expect(other.message).toMatch(/does not trust/);

    const net = { ca: ca.cert };
    const plan = await planFor(idp.issuer, undefined, net);
    expect(plan.server.tokenEndpoint).toBe(`${idp.issuer}/token`);
    const pending = await startSignIn(plan, { clientId: idp.clientId }, { net });
    const page = await idp.authorize(pending.authorizeUrl, { user: 'tls@example.com' });
    expect(page.body).toContain('You can close this tab');
    const tokens = await pending.tokens;
    expect(await idp.introspect(tokens.accessToken)).toMatchObject({ active: true, sub: 'tls@example.com' });
    const next = await refreshTokens(plan.server, { clientId: idp.clientId }, tokens.refreshToken, net);
    expect(await idp.introspect(next.accessToken)).toMatchObject({ active: true });
    expect(idp.tokenRequests).toEqual({ authorization_code: 1, refresh_token: 1 });
    // A refresh without the CA is refused before anything is sent, and says why.
    const refused = await failureOf(
      refreshTokens(plan.server, { clientId: idp.clientId }, next.refreshToken as string),
    );
    expect(refused.message).toMatch(/does not trust/);
    expect(idp.tokenRequests.refresh_token).toBe(1);
  });

  it('a preset names its endpoints or issuer, scopes and servers; a name it does not know is refused', async () => {
    const ms = await planFor('Microsoft');
    expect(ms.server.tokenEndpoint).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/token');
    expect(ms.scope.split(' ')).toContain('offline_access');
    expect(ms.smtp).toEqual({ host: 'smtp.office365.com', port: 587, tls: 'starttls' });
    const pending = await startSignIn(ms, { clientId: 'an-entra-client' });
    const url = new URL(pending.authorizeUrl);
    pending.cancel();
    expect(url.origin + url.pathname).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
    expect(url.searchParams.get('prompt')).toBe('select_account');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const e = await failureOf(planFor('hotmail'));
    expect(e.reason).toBe('invalid');
    expect(e.message).not.toContain('hotmail');
  });

  it('refuses an http issuer that is not this computer, and names what it cannot discover', async () => {
    expect((await failureOf(discover('http://mail.example.com'))).message).toMatch(
      /only for a sign-in server on this computer/,
    );
    const idp = await startOidc();
    const e = await failureOf(discover(`${idp.issuer}/nothing-here`));
    expect(e.reason).toBe('discovery');
    expect(e.message).toMatch(/publishes no usable metadata/);
  });

  it('error=access_denied is a sentence', async () => {
    const idp = await startOidc();
    const pending = await startSignIn(await planFor(idp.issuer), { clientId: idp.clientId });
    await idp.authorize(pending.authorizeUrl, { deny: true });
    const e = await failureOf(pending.tokens);
    expect(e.reason).toBe('denied');
    expect(e.message).toBe('The sign-in was refused at the provider (access denied); nothing was saved.');
  });

  it('a redirect with another state ends the sign-in with a sentence, and later ones find it closed', async () => {
    const idp = await startOidc();
    const pending = await startSignIn(await planFor(idp.issuer), { clientId: idp.clientId });
    const redirectUri = new URL(pending.authorizeUrl).searchParams.get('redirect_uri') as string;
    const forged = await fetch(`${redirectUri}?code=stolen&state=not-this-one`);
    expect(forged.status).toBe(400);
    const e = await failureOf(pending.tokens);
    expect(e.reason).toBe('state');
    expect(e.message).toMatch(/did not carry this sign-in’s state/);
    // The real redirect after it reaches no one: the sign-in is over and nothing is exchanged.
    await expect(idp.authorize(pending.authorizeUrl)).rejects.toThrow();
    expect(idp.tokenRequests.authorization_code).toBe(0);
  });

  it('a second use of the redirect is answered with a sentence and exchanges nothing more', async () => {
    const idp = await startOidc();
    const pending = await startSignIn(await planFor(idp.issuer), { clientId: idp.clientId });
    const redirectUri = new URL(new URL(pending.authorizeUrl).searchParams.get('redirect_uri') as string);
    // A connection opened before the redirect (a browser's preconnect) is still served after it.
    const early = connect(Number(redirectUri.port), '127.0.0.1');
    await new Promise<void>((resolve) => early.once('connect', () => resolve()));
    const first = await idp.authorize(pending.authorizeUrl);
    await pending.tokens;
    const again = new URL(first.url);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      early.on('data', (d) => {
        got += d.toString();
      });
      early.on('end', () => resolve(got));
      early.write(
        `GET ${again.pathname}${again.search} HTTP/1.1\r\nHost: ${again.host}\r\nConnection: close\r\n\r\n`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 410/);
    expect(answer).toContain('This sign-in has already ended');
    expect(idp.tokenRequests.authorization_code).toBe(1);
  });

  it('a token endpoint answering 400 is a sentence', async () => {
    const idp = await startOidc();
    const pending = await startSignIn(await planFor(idp.issuer), { clientId: idp.clientId });
    idp.failTokenRequests(1);
    await idp.authorize(pending.authorizeUrl);
    const e = await failureOf(pending.tokens);
    expect(e.reason).toBe('token');
    expect(e.message).toBe(
      `The sign-in server ${new URL(idp.issuer).host} refused the sign-in (400, "invalid_request"); nothing was saved.`,
    );
  });

  it('a refresh the provider refuses (revoked) asks to sign in again', async () => {
    const idp = await startOidc();
    const plan = await planFor(idp.issuer);
    const pending = await startSignIn(plan, { clientId: idp.clientId });
    await idp.authorize(pending.authorizeUrl);
    const tokens = await pending.tokens;
    idp.revokeAll();
    const e = await failureOf(refreshTokens(plan.server, { clientId: idp.clientId }, tokens.refreshToken));
    expect(e.reason).toBe('refused');
    expect(e.message).toMatch(/Sign in again\.$/);
  });

  it('the wait ends after its time limit and at cancel, with nothing exchanged', async () => {
    const idp = await startOidc();
    const plan = await planFor(idp.issuer);
    const late = await startSignIn(plan, { clientId: idp.clientId }, { timeoutMs: 50 });
    expect((await failureOf(late.tokens)).reason).toBe('timeout');
    const stopped = await startSignIn(plan, { clientId: idp.clientId });
    stopped.cancel();
    expect((await failureOf(stopped.tokens)).reason).toBe('cancelled');
    await expect(idp.authorize(stopped.authorizeUrl)).rejects.toThrow();
    expect(idp.tokenRequests.authorization_code).toBe(0);
  });
});
