// Opening an IMAP connection for an account (issue 5), and what its failures mean to the user. The TLS mode
// is the user's explicit choice and is enforced: `starttls` must upgrade (a server that does not offer it
// fails rather than continuing in cleartext), `none` is allowed only on loopback (shared/mail-account.ts).
import { createRequire } from 'node:module';
import type { ImapFlow } from 'imapflow';
import type { AccountLogin } from '../accounts.ts';
import { accessTokenFor, TokenFailure } from '../oauth/token-broker.ts';

// imapflow is loaded with the first connection, not at every start of the command line (issue 18).
const require = createRequire(import.meta.url);

export type MailErrorCode = 'unauthorized' | 'transport' | 'timeout' | 'io' | 'cancelled';

/** A mail-server failure with Skimmer's own sentence; never the server's text, never the password. */
export class MailFailure extends Error {
  readonly code: MailErrorCode;
  /** True when trying again later may work (the network, the server restarting), false for a refusal. */
  readonly retryable: boolean;
  constructor(code: MailErrorCode, message: string, retryable: boolean) {
    super(message);
    this.code = code;
    this.retryable = retryable;
  }
}

export type ImapTimeouts = { connectMs: number; greetingMs: number; socketMs: number };
export const defaultTimeouts: ImapTimeouts = { connectMs: 10_000, greetingMs: 10_000, socketMs: 120_000 };

/**
 * The server refused an access token that was then refreshed: one more login with the new token may work (the
 * token was revoked early, or the clock is off). Whoever logs in tries once more on this; a second is final.
 */
export class TokenRejected extends MailFailure {}

/** `qresync: false` leaves QRESYNC off, as on a server without it (tests and bench/imap-resync.ts compare). */
export type ImapExtensions = { qresync?: boolean };

export function imapClient(
  login: AccountLogin,
  timeouts: ImapTimeouts = defaultTimeouts,
  extensions: ImapExtensions = {},
): ImapFlow {
  const { host, port, tls } = login.imap;
  const { ImapFlow: Flow } = require('imapflow') as typeof import('imapflow');
  const client = new Flow({
    host: host.replace(/^\[|\]$/g, ''),
    port,
    secure: tls === 'tls',
    // SECURITY: `starttls` means the password never crosses the wire unencrypted; imapflow's default would
    // continue in cleartext when the (unauthenticated) capability list omits STARTTLS.
    doSTARTTLS: tls === 'starttls' ? true : tls === 'none' ? false : undefined,
    auth: { user: login.user, pass: login.password },
    logger: false,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    // Sync decides when to IDLE; an automatic IDLE between commands would only add round trips.
    disableAutoIdle: true,
    // ENABLE QRESYNC where the server offers it (RFC 7162 §3.2.3): a sync then opens a folder with what it
    // saw last and hears only what changed since (imap-sync.ts). Expunges then arrive on every connection as
    // VANISHED, which imapflow reports as the same 'expunge' event (the IDLE wait listens for it).
    qresync: extensions.qresync ?? true,
  });
  const oauth = login.oauth;
  if (oauth) {
    // An account signed in with OAuth logs in with an access token (SASL OAUTHBEARER or XOAUTH2, whichever the
    // server offers: imapflow picks), asked for as the connection opens, so it is the freshest there is.
    const connect = client.connect.bind(client);
    client.connect = async () => {
      let token: string;
      try {
        token = (await accessTokenFor({ id: login.id, oauth })).token;
      } catch (e) {
        throw mailFailure(e, `the mail server ${host}`);
      }
      client.options.auth = { user: login.user, accessToken: token };
      try {
        await connect();
      } catch (e) {
        const f = mailFailure(e, `the mail server ${host}`);
        if (f.code !== 'unauthorized') throw e;
        // Refused: refreshed now (a refused refresh is "Sign in again"), and the caller may log in once more.
        try {
          await accessTokenFor({ id: login.id, oauth }, token);
        } catch (refresh) {
          throw mailFailure(refresh, `the mail server ${host}`);
        }
        throw new TokenRejected(
          'unauthorized',
          `The mail server ${host} refused the sign-in of ${login.user}.`,
          false,
        );
      }
    };
  }
  return client;
}

/**
 * Skimmer's sentence for an error from imapflow, nodemailer or the socket under them. `server` names it as in
 * the middle of a sentence ("the SMTP server smtp.example.com").
 */
export function mailFailure(e: unknown, server: string): MailFailure {
  if (e instanceof MailFailure) return e;
  if (e instanceof TokenFailure) return new MailFailure(e.code, e.message, e.retryable);
  const where = server.charAt(0).toUpperCase() + server.slice(1);
  const err = (e ?? {}) as {
    code?: unknown;
    authenticationFailed?: unknown;
    serverResponseCode?: unknown;
    message?: unknown;
  };
  const code = typeof err.code === 'string' ? err.code : '';
  // A login refused for a reason that passes (RFC 5530: [LIMIT] too many connections, [UNAVAILABLE] a backend
  // down) is not a wrong password: giving up would stop the account's sync until the user acts.
  if (err.serverResponseCode === 'LIMIT' || err.serverResponseCode === 'UNAVAILABLE') {
    return new MailFailure('transport', `${where} refused the login for now; Skimmer will try again.`, true);
  }
  // imapflow marks a refused login; nodemailer says EAUTH (SMTP 535).
  if (err.authenticationFailed === true || code === 'AUTHENTICATIONFAILED' || code === 'EAUTH') {
    return new MailFailure('unauthorized', `${where} refused the user name or password.`, false);
  }
  if (/TIMEDOUT|TIMEOUT/i.test(code))
    return new MailFailure('timeout', `${where} did not answer in time.`, true);
  if (code === 'ECONNREFUSED') return new MailFailure('transport', `${where} refused the connection.`, true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new MailFailure('transport', `${where}: the host name could not be found.`, code === 'EAI_AGAIN');
  }
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) {
    return new MailFailure('transport', `${where}: the TLS connection failed (${code}).`, false);
  }
  if (['ECONNRESET', 'EPIPE', 'NoConnection', 'EConnectionClosed', 'ECONNECTION', 'ESOCKET'].includes(code)) {
    return new MailFailure('transport', `The connection to ${server} was lost.`, true);
  }
  return new MailFailure('io', `${where} failed: the server's answer was not what Skimmer expected.`, true);
}
