// The test servers of a sign-in with OAuth 2.0 (issue 28), checked with clients of their own: the provider's
// tokens log in to Dovecot (XOAUTH2 and OAUTHBEARER through its oauth2 passdb) and the SMTP sink (XOAUTH2), both
// asking the provider's introspection endpoint; a revoked token and a password are refused where they must be.
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { startDovecot } from './dovecot.ts';
import { startOidc } from './oidc.ts';
import { startSmtpSink } from './smtp-sink.ts';

async function tokenFor(idp: Awaited<ReturnType<typeof startOidc>>, user: string): Promise<string> {
  const { discover } = await import('../../electron/mail/oauth/oauth-client.ts');
  const { startSignIn } = await import('../../electron/mail/oauth/sign-in.ts');
  const server = await discover(idp.issuer);
  const pending = await startSignIn(
    { server, scope: 'openid offline_access', extraParams: {} },
    { clientId: idp.clientId },
  );
  await idp.authorize(pending.authorizeUrl, { user });
  return (await pending.tokens).accessToken;
}

describe('OAuth test servers', () => {
  it('Dovecot takes a token the provider vouches for, by OAUTHBEARER (what imapflow picks when offered), and refuses a revoked one', async () => {
    const idp = await startOidc();
    const dovecot = await startDovecot({ oauth2: { introspectionUrl: idp.introspection.withCredentials } });
    const token = await tokenFor(idp, 'test@example.com');
    const login = async (accessToken: string) => {
      const c = new ImapFlow({ ...dovecot.imapOptions(), auth: { user: 'test@example.com', accessToken } });
      c.on('error', () => {});
      await c.connect();
      const caps = [...c.capabilities.keys()];
      await c.logout();
      return caps;
    };
    expect((await login(token)).length).toBeGreaterThan(0);
    const client = await dovecot.client();
    await client.logout(); // the password still logs in beside the tokens
    idp.revokeAll();
    await expect(login(token)).rejects.toMatchObject({ authenticationFailed: true });
  });

  it('the SMTP sink takes XOAUTH2 with a live token and refuses a revoked one', async () => {
    const idp = await startOidc();
    const sink = await startSmtpSink({ oauth2: { introspect: (t) => idp.introspect(t) } });
    const token = await tokenFor(idp, 'test@example.com');
    const send = (accessToken: string) =>
      createTransport({
        host: sink.host,
        port: sink.port,
        secure: false,
        ignoreTLS: true,
        auth: { type: 'OAuth2', user: 'test@example.com', accessToken },
      }).sendMail({ from: 'test@example.com', to: 'ana@example.net', subject: 'hi', text: 'hello' });
    await send(token);
    expect((await sink.waitFor(1))[0]?.user).toBe('test@example.com');
    idp.revokeAll();
    await expect(send(token)).rejects.toMatchObject({ code: 'EAUTH' });
  });
});
