// The access tokens of the accounts that sign in with OAuth 2.0 (issue 28). SECURITY: the refresh token lives in
// the vault (KeyVault, beside passwords) and is read, used and replaced only here, on the main thread; an access
// token lives in memory only — here, and for the moment a connection logs in, in the thread that logs in (the
// sync and fetcher workers ask over a BroadcastChannel of this process, never through a file, the database,
// argv or an environment variable). An access token is refreshed 2 minutes before it expires, and at once when a
// server refused it (`rejected`), once per token. A refresh the provider refuses (invalid_grant: revoked,
// expired, password changed) marks the account "Sign in again" and becomes the same MailFailure `unauthorized`
// a refused password is, so the sync loop stops until the person signs in again.
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import { type OAuthClient, type OAuthNet, type OAuthServer, refreshTokens } from './oauth-client.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * Why no access token could be had, as the mail side's MailFailure will say it (imap-connect.ts turns one into
 * the other; this file knows nothing of IMAP). `unauthorized` and not retryable: the person must act.
 */
export class TokenFailure extends Error {
  readonly code: 'unauthorized' | 'transport' | 'timeout' | 'io';
  readonly retryable: boolean;
  constructor(code: TokenFailure['code'], message: string, retryable: boolean) {
    super(message);
    this.code = code;
    this.retryable = retryable;
  }
}

/** What a login needs to get an access token from any thread of this process. */
export type OAuthLogin = { channel: string };

export type AccessToken = { token: string; expiresAt: number };

type Request = { type: 'token?'; id: string; accountId: number; rejected: string | null };
type Answer =
  | { type: 'token'; id: string; token: AccessToken }
  | { type: 'failed'; id: string; code: TokenFailure['code']; message: string; retryable: boolean };

/** What the broker reads and writes about an account: its provider and client, its refresh token (vault). */
export type TokenStore = {
  /** Null when the account does not sign in with OAuth (or is gone). */
  settings(
    accountId: number,
  ): Promise<{ name: string; server: OAuthServer; client: OAuthClient; needsSignIn: boolean } | null>;
  refreshToken(accountId: number): Promise<string | null>;
  /** A rotated refresh token (Microsoft's, oidc-provider's), written over the old one. */
  saveRefreshToken(accountId: number, token: string): Promise<void>;
  /** The provider refused the saved sign-in: the account shows "Sign in again". */
  refused(accountId: number): void;
};

const refreshMarginMs = 2 * 60_000;

// The brokers of this thread, by channel: a login on the main thread asks its broker directly.
const local = new Map<string, TokenBroker>();

export type TokenBroker = {
  readonly login: OAuthLogin;
  accessToken(accountId: number, rejected?: string | null): Promise<AccessToken>;
  /** The access token a sign-in's code exchange just gave (no refresh needed for the first login). */
  seed(accountId: number, token: AccessToken): void;
  /** Forgets the account's access token (signed in again, or removed). */
  forget(accountId: number): void;
  close(): void;
};

export function createTokenBroker(
  store: TokenStore,
  opts: { net?: OAuthNet; now?: () => number } = {},
): TokenBroker {
  const now = opts.now ?? Date.now;
  const cached = new Map<number, AccessToken>();
  const inFlight = new Map<number, Promise<AccessToken>>();
  const channel = `skimmer-oauth-${randomUUID()}`;

  async function refresh(accountId: number): Promise<AccessToken> {
    const s = await store.settings(accountId);
    if (!s) throw new TokenFailure('unauthorized', 'That account does not sign in with a provider.', false);
    // Refused before: the provider is not asked again until the person signs in again (which clears it). Every
    // login of the account — the sync, the outbox, Test — fails with the same sentence meanwhile.
    if (s.needsSignIn) throw signInAgain(s.name);
    const refreshToken = await store.refreshToken(accountId);
    if (refreshToken === null) {
      store.refused(accountId);
      throw signInAgain(s.name);
    }
    try {
      const t = await refreshTokens(s.server, s.client, refreshToken, opts.net, now);
      if (t.refreshToken && t.refreshToken !== refreshToken)
        await store.saveRefreshToken(accountId, t.refreshToken);
      const token = { token: t.accessToken, expiresAt: t.expiresAt };
      cached.set(accountId, token);
      return token;
    } catch (e) {
      cached.delete(accountId);
      if (e instanceof OAuthError && e.reason === 'refused') {
        store.refused(accountId);
        throw signInAgain(s.name);
      }
      if (e instanceof OAuthError && e.reason === 'unreachable')
        throw new TokenFailure('transport', e.message, true);
      if (e instanceof OAuthError) throw new TokenFailure('unauthorized', e.message, false);
      throw e;
    }
  }

  const broker: TokenBroker = {
    login: { channel },
    accessToken(accountId, rejected = null) {
      const have = cached.get(accountId);
      const fresh = have && have.expiresAt - refreshMarginMs > now() && have.token !== rejected;
      if (have && fresh) return Promise.resolve(have);
      // One refresh at a time per account: a rotated refresh token may be used once only.
      let p = inFlight.get(accountId);
      if (!p) {
        p = refresh(accountId).finally(() => inFlight.delete(accountId));
        inFlight.set(accountId, p);
      }
      return p;
    },
    seed(accountId, token) {
      cached.set(accountId, token);
    },
    forget(accountId) {
      cached.delete(accountId);
    },
    close() {
      local.delete(channel);
      bc.close();
    },
  };

  const bc = new BroadcastChannel(channel);
  bc.unref();
  bc.onmessage = (event: unknown) => {
    const r = (event as { data?: Request }).data;
    if (r?.type !== 'token?') return;
    broker.accessToken(r.accountId, r.rejected).then(
      (token) => bc.postMessage({ type: 'token', id: r.id, token } satisfies Answer),
      (e: unknown) => {
        const f =
          e instanceof TokenFailure ? e : new TokenFailure('io', 'The sign-in could not be refreshed.', true);
        bc.postMessage({
          type: 'failed',
          id: r.id,
          code: f.code,
          message: f.message,
          retryable: f.retryable,
        } satisfies Answer);
      },
    );
  };
  local.set(channel, broker);
  return broker;
}

const signInAgain = (name: string) =>
  new TokenFailure(
    'unauthorized',
    // Said by the app (beside its Sign in again button) and the CLI (which adds its command) alike.
    `The provider refused the saved sign-in of "${name}" (revoked or expired); sign in again.`,
    false,
  );

const askTimeoutMs = 60_000;

/**
 * An access token for a login, from whichever thread: the broker itself on the main thread, else a question
 * on its channel. `rejected`: the token a server just refused, so a fresh one is made.
 */
export function accessTokenFor(
  login: { id: number; oauth: OAuthLogin },
  rejected: string | null = null,
): Promise<AccessToken> {
  const here = local.get(login.oauth.channel);
  if (here) return here.accessToken(login.id, rejected);
  return new Promise((resolve, reject) => {
    const bc = new BroadcastChannel(login.oauth.channel);
    const id = randomUUID();
    const timer = setTimeout(() => {
      bc.close();
      reject(new TokenFailure('timeout', 'The sign-in could not be refreshed in time.', true));
    }, askTimeoutMs);
    bc.onmessage = (event: unknown) => {
      const a = (event as { data?: Answer }).data;
      if (!a || a.id !== id || (a.type !== 'token' && a.type !== 'failed')) return;
      clearTimeout(timer);
      bc.close();
      if (a.type === 'token') resolve(a.token);
      else reject(new TokenFailure(a.code, a.message, a.retryable));
    };
    bc.postMessage({ type: 'token?', id, accountId: login.id, rejected } satisfies Request);
  });
}
