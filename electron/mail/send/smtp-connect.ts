// Opening an SMTP connection for an account (issue 5), with the same TLS rules as IMAP: `starttls` must
// upgrade, `none` only on loopback (checked when the account was saved). Pooled: a server that delays each
// new connection (smtp-server waits 100 ms to catch early talkers) then costs that once per batch.
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import type { AccountLogin } from '../accounts.ts';
import { accessTokenFor, type OAuthLogin } from '../oauth/token-broker.ts';

// nodemailer is loaded when a message is first sent, not at every start of the command line (issue 18).
const require = createRequire(import.meta.url);

export function smtpTransport(login: AccountLogin): Transporter {
  const smtp = login.smtp;
  if (!smtp) throw new Error(`The account "${login.name}" has no SMTP server.`);
  const { createTransport } = require('nodemailer') as typeof import('nodemailer');
  return createTransport({
    pool: true,
    maxConnections: 1,
    host: smtp.host.replace(/^\[|\]$/g, ''),
    port: smtp.port,
    secure: smtp.tls === 'tls',
    // SECURITY: never continue in cleartext when the user asked for STARTTLS.
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    auth: login.oauth ? oauth2(login, login.oauth) : { user: login.user, pass: login.password },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
}

// SASL XOAUTH2 with the account's access token (oauth/token-broker.ts). nodemailer asks again with `renew` when
// the server refused the token, and tries once more with the refreshed one.
function oauth2(login: AccountLogin, oauth: OAuthLogin) {
  let last: string | null = null;
  return {
    type: 'OAuth2' as const,
    user: login.user,
    provisionCallback: (
      _user: string,
      renew: boolean,
      done: (err: Error | null, accessToken?: string, expires?: number) => void,
    ) => {
      accessTokenFor({ id: login.id, oauth }, renew ? last : null).then(
        (t) => {
          last = t.token;
          done(null, t.token, t.expiresAt);
        },
        (e: Error) => done(e),
      );
    },
  };
}
