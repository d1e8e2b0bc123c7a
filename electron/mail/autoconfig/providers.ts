// The providers Skimmer knows by name: the built-in table of domains checked before anything is asked on the
// network (so a Gmail address costs no lookup at all and leaks nothing), the MX hosts that mean a provider (a
// Workspace or Microsoft 365 domain of its own), and which OAuth preset a host or issuer belongs to. Host names
// and ports are the providers' published ones (shared/mail-account.ts's presets where it has them).
import { mailPresets, type ServerSettings } from '../../../shared/mail-account.ts';

export type OAuthPreset = 'google' | 'microsoft' | 'yahoo' | 'aol';

export type Provider = {
  label: string;
  imap: ServerSettings;
  smtp: ServerSettings;
  auth: 'password' | 'oauth';
  oauthPreset?: OAuthPreset;
};

const google: Provider = {
  label: 'Google',
  imap: mailPresets.gmail.imap,
  smtp: mailPresets.gmail.smtp,
  auth: 'oauth',
  oauthPreset: 'google',
};
const microsoft: Provider = {
  label: 'Microsoft',
  imap: mailPresets.outlook.imap,
  smtp: mailPresets.outlook.smtp,
  auth: 'oauth',
  oauthPreset: 'microsoft',
};
const yahoo: Provider = {
  label: 'Yahoo',
  imap: mailPresets.yahoo.imap,
  smtp: mailPresets.yahoo.smtp,
  auth: 'oauth',
  oauthPreset: 'yahoo',
};
const aol: Provider = {
  label: 'AOL',
  imap: { host: 'imap.aol.com', port: 993, tls: 'tls' },
  smtp: { host: 'smtp.aol.com', port: 465, tls: 'tls' },
  auth: 'oauth',
  oauthPreset: 'aol',
};
// iCloud and Fastmail take no OAuth from other apps: an app password, made in their settings.
const icloud: Provider = {
  label: 'iCloud Mail',
  imap: mailPresets.icloud.imap,
  smtp: mailPresets.icloud.smtp,
  auth: 'password',
};
const fastmail: Provider = {
  label: 'Fastmail',
  imap: mailPresets.fastmail.imap,
  smtp: mailPresets.fastmail.smtp,
  auth: 'password',
};

const byDomain: Record<string, Provider> = {
  'gmail.com': google,
  'googlemail.com': google,
  'outlook.com': microsoft,
  'hotmail.com': microsoft,
  'live.com': microsoft,
  'yahoo.com': yahoo,
  'aol.com': aol,
  'icloud.com': icloud,
  'me.com': icloud,
  'fastmail.com': fastmail,
};

/** The provider of a domain in the built-in table (lower-cased), or null. */
export function builtInProvider(domain: string): Provider | null {
  return byDomain[domain] ?? null;
}

const endsWithLabel = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/**
 * The provider a domain's mail goes to, read from one MX host: Google's (`aspmx.l.google.com`,
 * `smtp.google.com`, `*.googlemail.com`) or Microsoft 365's (`*.mail.protection.outlook.com`); null for any other.
 */
export function mxProvider(exchange: string): Provider | null {
  const host = exchange.toLowerCase().replace(/\.$/, '');
  if (endsWithLabel(host, 'google.com') || endsWithLabel(host, 'googlemail.com')) return google;
  if (host.endsWith('.mail.protection.outlook.com')) return microsoft;
  return null;
}

/**
 * The OAuth preset whose sign-in a server or an autoconfig file's issuer belongs to, or null: an OAuth2 hint for
 * another provider keeps its issuer for the sign-in to discover (RFC 8414) instead.
 */
export function presetOf(hostOrIssuer: string): OAuthPreset | null {
  const host = hostOrIssuer
    .toLowerCase()
    .replace(/^https:\/\//, '')
    .replace(/[/:].*$/, '');
  if (['gmail.com', 'googlemail.com', 'google.com'].some((d) => endsWithLabel(host, d))) return 'google';
  if (['office365.com', 'outlook.com', 'microsoftonline.com'].some((d) => endsWithLabel(host, d))) {
    return 'microsoft';
  }
  if (endsWithLabel(host, 'yahoo.com')) return 'yahoo';
  if (endsWithLabel(host, 'aol.com')) return 'aol';
  return null;
}
