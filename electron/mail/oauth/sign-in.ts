// One sign-in with OAuth 2.0 (issue 28): the provider's endpoints (a preset's, or discovered from the issuer
// the person gave), a loopback listener for this sign-in alone, the authorization URL with PKCE S256 and state,
// and, once the redirect came back, the code exchanged for tokens. The caller opens the URL in the system
// browser (the desktop's shell, the browser mode's new tab, the CLI prints it) and awaits `tokens`; 10 minutes
// without a redirect, or cancel(), end it with nothing kept.

import type { ServerSettings } from '../../../shared/mail-account.ts';
import { isOAuthPreset, type OAuthPresetName, oauthPresets } from '../../../shared/oauth-issuer.ts';
import {
  authorizationRequest,
  discover,
  exchangeCode,
  type OAuthClient,
  type OAuthNet,
  type OAuthServer,
  type Tokens,
} from './oauth-client.ts';
import { OAuthError } from './oauth-error.ts';
import { listenForRedirect } from './redirect-listener.ts';

const signInTimeoutMs = 10 * 60_000;

/** How an account signs in: the provider (endpoints, scope), this client, and the mail servers a preset names. */
export type OAuthPlan = {
  preset: OAuthPresetName | null;
  server: OAuthServer;
  scope: string;
  extraParams: Record<string, string>;
  imap: ServerSettings | null;
  smtp: ServerSettings | null;
};

// A self-hosted provider (Keycloak, Authentik in front of Dovecot) gets the scopes that hand out a refresh
// token; its mail servers read the token's subject or email, whatever else it grants.
const issuerScope = 'openid email offline_access';

/** The plan for `--oauth PRESET|ISSUER_URL`: a preset by name, else an issuer discovered at its address. */
export async function planFor(oauth: string, scope?: string, net: OAuthNet = {}): Promise<OAuthPlan> {
  const name = oauth.trim().toLowerCase();
  if (isOAuthPreset(name)) {
    const p = oauthPresets[name];
    const server =
      'endpoints' in p
        ? {
            issuer: new URL(p.endpoints.authorization).origin,
            authorizationEndpoint: p.endpoints.authorization,
            tokenEndpoint: p.endpoints.token,
          }
        : await discover(p.issuer, net);
    return {
      preset: name,
      server,
      scope: scope ?? p.scope,
      extraParams: 'extraParams' in p ? { ...p.extraParams } : {},
      imap: p.imap,
      smtp: p.smtp,
    };
  }
  if (!/^https?:\/\//i.test(oauth.trim())) {
    throw new OAuthError(
      'invalid',
      `The provider is neither one Skimmer knows (${Object.keys(oauthPresets).join(', ')}) nor an issuer address (https://…).`,
    );
  }
  return {
    preset: null,
    server: await discover(oauth, net),
    scope: scope ?? issuerScope,
    extraParams: {},
    imap: null,
    smtp: null,
  };
}

export type PendingSignIn = {
  /** Where the person signs in, in their browser. */
  authorizeUrl: string;
  /** The tokens once the redirect came back and the code was exchanged; an OAuthError otherwise. */
  tokens: Promise<Tokens & { refreshToken: string }>;
  /** Stops the wait (cancelled); nothing is exchanged after it. */
  cancel(): void;
};

export async function startSignIn(
  plan: Pick<OAuthPlan, 'server' | 'scope' | 'extraParams'>,
  client: OAuthClient,
  opts: { loginHint?: string; timeoutMs?: number; net?: OAuthNet } = {},
): Promise<PendingSignIn> {
  if (client.clientId.trim() === '') {
    throw new OAuthError(
      'invalid',
      'Give the client id you registered with the provider (Skimmer ships none).',
    );
  }
  // The listener comes first (its port is in the redirect URI); it learns the request's state before the URL
  // is handed out.
  const listener = await listenForRedirect(opts.timeoutMs ?? signInTimeoutMs);
  let request: Awaited<ReturnType<typeof authorizationRequest>>;
  try {
    request = await authorizationRequest(plan.server, client, {
      redirectUri: listener.redirectUri,
      scope: plan.scope,
      extraParams: plan.extraParams,
      ...(opts.loginHint ? { loginHint: opts.loginHint } : {}),
    });
  } catch (e) {
    listener.close();
    throw e;
  }
  listener.expect(request.state);
  let cancelled = false;
  const tokens = listener.result.then((redirect) => {
    if (cancelled) throw new OAuthError('cancelled', 'The sign-in was stopped; nothing was saved.');
    return exchangeCode(
      plan.server,
      client,
      {
        params: redirect.params,
        state: request.state,
        codeVerifier: request.codeVerifier,
        redirectUri: listener.redirectUri,
      },
      opts.net,
    );
  });
  tokens.catch(() => {});
  return {
    authorizeUrl: request.url,
    tokens,
    cancel() {
      cancelled = true;
      listener.close();
    },
  };
}
