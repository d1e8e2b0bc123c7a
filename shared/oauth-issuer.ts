// Sign-in with OAuth 2.0 (issue 28): which providers Skimmer knows, and what an issuer address may be. Pure, so
// the account form shows the same verdicts the main process enforces. Skimmer ships no client id: a preset names
// the provider's endpoints, scopes and mail servers, and the client id comes from the person (the form, or
// `--client-id`).
import { isLoopback } from './loopback.ts';
import type { ServerSettings } from './mail-account.ts';

export type OAuthPreset = {
  label: string;
  /** Discovered from its metadata (`/.well-known/openid-configuration`, else RFC 8414's). */
  issuer?: string;
  /** Given directly where the issuer is not one address (Microsoft's `common` endpoint: each tenant has its own). */
  endpoints?: { authorization: string; token: string };
  scope: string;
  /** Added to the authorization request: what the provider needs to hand out a refresh token. */
  extraParams?: Record<string, string>;
  imap: ServerSettings;
  smtp: ServerSettings;
};

export const oauthPresets = {
  google: {
    label: 'Google (Gmail, Workspace)',
    issuer: 'https://accounts.google.com',
    scope: 'https://mail.google.com/',
    // Google gives a refresh token only for offline access, and again only when consent is asked.
    extraParams: { access_type: 'offline', prompt: 'consent' },
    imap: { host: 'imap.gmail.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.gmail.com', port: 465, tls: 'tls' },
  },
  microsoft: {
    label: 'Microsoft (Outlook.com, Microsoft 365)',
    endpoints: {
      authorization: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      token: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    },
    scope:
      'https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access',
    // Microsoft gives the refresh token for offline_access without asking consent each time; the account picker
    // lets a person with several accounts choose.
    extraParams: { prompt: 'select_account' },
    imap: { host: 'outlook.office365.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.office365.com', port: 587, tls: 'starttls' },
  },
  yahoo: {
    label: 'Yahoo Mail',
    issuer: 'https://api.login.yahoo.com',
    scope: 'mail-w',
    imap: { host: 'imap.mail.yahoo.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.mail.yahoo.com', port: 465, tls: 'tls' },
  },
  aol: {
    label: 'AOL Mail',
    issuer: 'https://api.login.aol.com',
    scope: 'mail-w',
    imap: { host: 'imap.aol.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.aol.com', port: 465, tls: 'tls' },
  },
} as const satisfies Record<string, OAuthPreset>;

export type OAuthPresetName = keyof typeof oauthPresets;

export const isOAuthPreset = (name: string): name is OAuthPresetName => Object.hasOwn(oauthPresets, name);

export type IssuerCheck = { ok: true; issuer: string } | { ok: false; reason: string };

/**
 * The issuer as it will be used, or why not. SECURITY: the authorization code and the tokens travel to the
 * issuer's endpoints, so plain http is allowed only for a provider on this computer, as for model services.
 */
export function checkIssuer(raw: string): IssuerCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The issuer is not a web address; give it as https://…' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The issuer must start with https:// (or http:// on this computer).' };
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return {
      ok: false,
      reason: 'Plain http:// is allowed only for a sign-in server on this computer; use https://.',
    };
  }
  if (url.username || url.password || url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    return {
      ok: false,
      reason: 'The issuer is a plain address, without a user, a query (?…) or a fragment (#…).',
    };
  }
  // An issuer is compared as written (RFC 8414 §3.3): only a lone trailing slash is dropped.
  return { ok: true, issuer: url.pathname === '/' ? url.origin : url.href };
}
