// The OAuth 2.0 protocol of a mail sign-in (issue 28), through oauth4webapi (a small, audited, dependency-free
// client from the author of oidc-provider and jose), never hand-written requests: discovery, the
// authorization request with PKCE S256 and state, the code exchange, the refresh. Everything a provider
// answers is checked by the library (issuer, state, `iss` of the redirect where the server says it sends one,
// token response shape) and turned into an OAuthError with Skimmer's sentence here.
import { createRequire } from 'node:module';
import { isLoopback } from '../../../shared/loopback.ts';
import { checkIssuer } from '../../../shared/oauth-issuer.ts';
import { rootsWith } from '../../extra-ca.ts';
import { OAuthError } from './oauth-error.ts';

// Loaded with the first sign-in or refresh, not at every start of the command line (issue 18).
const require = createRequire(import.meta.url);
type Oauth = typeof import('oauth4webapi');
const lib = (): Oauth => require('oauth4webapi') as Oauth;

/** Where a provider signs in and hands out tokens: discovered from its issuer, or a preset's own endpoints. */
export type OAuthServer = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
};

/** This client, as registered with the provider by the person (Skimmer ships none). */
export type OAuthClient = {
  clientId: string;
  /** A desktop client's "secret" (Google's): not secret in a desktop app, but the token endpoint wants it. */
  clientSecret?: string | undefined;
};

export type Tokens = {
  accessToken: string;
  /** Absent when a refresh answer keeps the refresh token as it was (Google). */
  refreshToken?: string;
  /** When the access token stops working (ms since the epoch); an answer without expires_in counts 1 hour. */
  expiresAt: number;
};

/**
 * How providers are reached: certificate authorities trusted beside the system's (PEM), for a self-hosted
 * provider behind a company's own CA, and the tests' CA. Nothing else about TLS is configurable.
 */
export type OAuthNet = { ca?: string | undefined };

const requestTimeoutMs = 30_000;

// One connection pool per extra CA, trusted beside the system's roots (extra-ca.ts).
const agents = new Map<string, import('undici').Agent>();
function fetchTrusting(ca: string) {
  const undici = require('undici') as typeof import('undici');
  let agent = agents.get(ca);
  if (!agent) {
    agent = new undici.Agent({ connect: { ca: rootsWith(ca) } });
    agents.set(ca, agent);
  }
  const dispatcher = agent;
  return ((url: string, init: RequestInit) =>
    undici.fetch(url, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}

// SECURITY: oauth4webapi refuses http:// unless told; it is told only for an endpoint on this computer, the
// same line checkIssuer draws (shared/oauth-issuer.ts).
function insecureOk(url: string): boolean {
  const u = new URL(url);
  return u.protocol === 'http:' && isLoopback(u.hostname);
}

const options = (url: string, net: OAuthNet) => {
  const o = lib();
  return {
    signal: () => AbortSignal.timeout(requestTimeoutMs),
    ...(insecureOk(url) ? { [o.allowInsecureRequests]: true } : {}),
    ...(net.ca ? { [o.customFetch]: fetchTrusting(net.ca) } : {}),
  };
};

const asOf = (s: OAuthServer) => ({
  issuer: s.issuer,
  authorization_endpoint: s.authorizationEndpoint,
  token_endpoint: s.tokenEndpoint,
});

function checkEndpoint(what: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new OAuthError('discovery', `The sign-in server names no ${what}.`);
  const c = checkIssuer(raw.replace(/\?.*$/, ''));
  if (!c.ok) throw new OAuthError('discovery', `The sign-in server's ${what} cannot be used: ${c.reason}`);
  return raw;
}

/**
 * The provider's endpoints from its issuer: OpenID Connect discovery (`/.well-known/openid-configuration`),
 * else RFC 8414's `/.well-known/oauth-authorization-server`. The metadata must name this issuer exactly.
 */
export async function discover(rawIssuer: string, net: OAuthNet = {}): Promise<OAuthServer> {
  const checked = checkIssuer(rawIssuer);
  if (!checked.ok) throw new OAuthError('invalid', checked.reason);
  const o = lib();
  const issuer = new URL(checked.issuer);
  let last: unknown = null;
  for (const algorithm of ['oidc', 'oauth2'] as const) {
    try {
      const response = await o.discoveryRequest(issuer, { algorithm, ...options(issuer.href, net) });
      const as = await o.processDiscoveryResponse(issuer, response);
      return {
        issuer: as.issuer,
        authorizationEndpoint: checkEndpoint('authorization endpoint', as.authorization_endpoint),
        tokenEndpoint: checkEndpoint('token endpoint', as.token_endpoint),
      };
    } catch (e) {
      if (e instanceof OAuthError) throw e;
      last = e;
    }
  }
  if (isNetworkError(last)) throw unreachable(last, issuer.host);
  throw new OAuthError(
    'discovery',
    `The sign-in server ${issuer.host} publishes no usable metadata for the issuer ${checked.issuer} (neither OpenID Connect discovery nor RFC 8414).`,
  );
}

export type AuthorizationRequest = {
  url: string;
  state: string;
  codeVerifier: string;
};

/** The authorization URL with PKCE S256 and a fresh state, for this redirect URI. */
export async function authorizationRequest(
  server: OAuthServer,
  client: OAuthClient,
  opts: { redirectUri: string; scope: string; loginHint?: string; extraParams?: Record<string, string> },
): Promise<AuthorizationRequest> {
  const o = lib();
  const codeVerifier = o.generateRandomCodeVerifier();
  const state = o.generateRandomState();
  const url = new URL(server.authorizationEndpoint);
  const params: Record<string, string> = {
    ...opts.extraParams,
    client_id: client.clientId,
    redirect_uri: opts.redirectUri,
    response_type: 'code',
    scope: opts.scope,
    state,
    code_challenge: await o.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...(opts.loginHint ? { login_hint: opts.loginHint } : {}),
  };
  // OpenID Connect hands out a refresh token for offline_access only when consent is asked (Core §11).
  if (opts.scope.split(' ').includes('offline_access') && !params.prompt) params.prompt = 'consent';
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url: url.href, state, codeVerifier };
}

const clientAuth = (c: OAuthClient) =>
  c.clientSecret ? lib().ClientSecretPost(c.clientSecret) : lib().None();

/** The code of a checked redirect exchanged for tokens (with the PKCE verifier). */
export async function exchangeCode(
  server: OAuthServer,
  client: OAuthClient,
  redirect: { params: URLSearchParams; state: string; codeVerifier: string; redirectUri: string },
  net: OAuthNet = {},
  now: () => number = Date.now,
): Promise<Tokens & { refreshToken: string }> {
  const o = lib();
  const as = asOf(server);
  const c = { client_id: client.clientId };
  let callback: URLSearchParams;
  try {
    callback = o.validateAuthResponse(as, c, redirect.params, redirect.state);
  } catch (e) {
    throw redirectError(e);
  }
  let tokens: Tokens;
  try {
    const response = await o.authorizationCodeGrantRequest(
      as,
      c,
      clientAuth(client),
      callback,
      redirect.redirectUri,
      redirect.codeVerifier,
      options(server.tokenEndpoint, net),
    );
    tokens = tokensOf(await o.processAuthorizationCodeResponse(as, c, response), now);
  } catch (e) {
    throw tokenError(e, server, 'code');
  }
  if (!tokens.refreshToken) {
    throw new OAuthError(
      'token',
      'The sign-in server gave no refresh token, so Skimmer could not stay signed in; check that the client may use offline access.',
    );
  }
  return tokens as Tokens & { refreshToken: string };
}

/** A new access token (and, where the provider rotates them, a new refresh token). */
export async function refreshTokens(
  server: OAuthServer,
  client: OAuthClient,
  refreshToken: string,
  net: OAuthNet = {},
  now: () => number = Date.now,
): Promise<Tokens> {
  const o = lib();
  const as = asOf(server);
  const c = { client_id: client.clientId };
  try {
    const response = await o.refreshTokenGrantRequest(
      as,
      c,
      clientAuth(client),
      refreshToken,
      options(server.tokenEndpoint, net),
    );
    return tokensOf(await o.processRefreshTokenResponse(as, c, response), now);
  } catch (e) {
    throw tokenError(e, server, 'refresh');
  }
}

function tokensOf(
  r: { access_token: string; refresh_token?: string; expires_in?: number },
  now: () => number,
): Tokens {
  const lifetime = typeof r.expires_in === 'number' && r.expires_in > 0 ? r.expires_in : 3600;
  return {
    accessToken: r.access_token,
    ...(r.refresh_token ? { refreshToken: r.refresh_token } : {}),
    expiresAt: now() + lifetime * 1000,
  };
}

function redirectError(e: unknown): OAuthError {
  const o = lib();
  if (e instanceof o.AuthorizationResponseError) {
    if (e.error === 'access_denied') {
      return new OAuthError(
        'denied',
        'The sign-in was refused at the provider (access denied); nothing was saved.',
      );
    }
    return new OAuthError(
      'denied',
      `The provider ended the sign-in with the error "${safeCode(e.error)}"; nothing was saved.`,
    );
  }
  return new OAuthError(
    'state',
    'The sign-in’s redirect could not be used (its state or issuer is not this sign-in’s); nothing was saved. Sign in again.',
  );
}

function tokenError(e: unknown, server: OAuthServer, step: 'code' | 'refresh'): OAuthError {
  if (e instanceof OAuthError) return e;
  const o = lib();
  const host = new URL(server.tokenEndpoint).host;
  if (e instanceof o.ResponseBodyError) {
    if (step === 'refresh' && e.error === 'invalid_grant') {
      return new OAuthError(
        'refused',
        'The provider refused the saved sign-in (it was revoked or has expired). Sign in again.',
      );
    }
    return new OAuthError(
      'token',
      `The sign-in server ${host} refused the ${step === 'code' ? 'sign-in' : 'refresh'} (${e.status}, "${safeCode(e.error)}"); nothing was saved.`,
    );
  }
  if (isNetworkError(e)) return unreachable(e, host);
  return new OAuthError(
    'token',
    `The sign-in server ${host} answered what Skimmer cannot use; nothing was saved.`,
  );
}

// An error code is a registered token (RFC 6749 §5.2: %x20-21 / %x23-5B / %x5D-7E); anything else is not shown.
const safeCode = (code: string) => (/^[\w.-]{1,64}$/.test(code) ? code : 'unknown');

// The TLS checks' own codes (node's, from OpenSSL) for a certificate that is not trusted for that host.
const certificateCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function unreachable(e: unknown, host: string): OAuthError {
  const code = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof code === 'string' && certificateCodes.has(code)) {
    return new OAuthError(
      'unreachable',
      `The sign-in server ${host} showed a certificate this computer does not trust (${code}); nothing was sent to it.`,
    );
  }
  return new OAuthError('unreachable', `The sign-in server ${host} could not be reached.`);
}

function isNetworkError(e: unknown): boolean {
  const err = e as { name?: unknown; cause?: { code?: unknown } } | null;
  return (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    (err instanceof TypeError && typeof err.cause?.code === 'string')
  );
}
