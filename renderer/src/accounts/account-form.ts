// The "Add account" form as the user fills it in, and the request it becomes. It starts with the address alone:
// Skimmer's discovery (`account:discover`) fills in the servers, the login and how to sign in, each with where it
// came from; a setting that is not verified (a guess, plain HTTP, SRV records outside the domain) is used only
// once the person ticked it as checked or edited it. By hand, a provider preset fills in the servers; ports are
// typed as text; each server gets the verdict of `checkServer`, the same rule the main process enforces when it
// saves (shared/mail-account.ts), so the form says what is wrong before Save does. Pure; tested in
// account-form.test.ts.
import type { Request, Response } from '../../../shared/contract/index.ts';
import {
  type Checked,
  checkServer,
  mailPresets,
  type ServerSettings,
  type TlsMode,
} from '../../../shared/mail-account.ts';
import {
  checkIssuer,
  isOAuthPreset,
  type OAuthPresetName,
  oauthPresets,
} from '../../../shared/oauth-issuer.ts';

export type PresetKey = keyof typeof mailPresets;
export type ServerDraft = { host: string; port: string; tls: TlsMode };
// How the account logs in: its password (or app password), a provider Skimmer has a preset for, or another
// provider's OAuth issuer (its address in `issuer`).
export type SignInMethod = 'password' | OAuthPresetName | 'issuer';
export type Discovered = Response<'account:discover'>;
export type SettingName = Discovered['sources'][number]['setting'];
export type AccountDraft = {
  // 'address': only the address is asked; 'settings': what was found (or typed by hand), editable.
  step: 'address' | 'settings';
  address: string;
  // The discovery's answer the settings came from; null when they are typed by hand.
  found: Discovered | null;
  // The unverified settings the person ticked as checked, or edited (which is checking them).
  checked: SettingName[];
  name: string;
  preset: PresetKey | 'custom';
  method: SignInMethod;
  issuer: string;
  clientId: string;
  clientSecret: string;
  user: string;
  password: string;
  imap: ServerDraft;
  smtpOn: boolean;
  smtp: ServerDraft;
};
export type ServerKind = 'IMAP' | 'SMTP';

export const presetKeys = Object.keys(mailPresets) as PresetKey[];
export const tlsModes: readonly TlsMode[] = ['tls', 'starttls', 'none'];
export const tlsLabels: Record<TlsMode, string> = {
  tls: 'TLS',
  starttls: 'STARTTLS',
  none: 'None (this computer only)',
};

// The registered port of each mode (RFC 8314 §7.3 for implicit TLS; 143 and 587 upgrade with STARTTLS).
const usualPorts: Record<ServerKind, Record<TlsMode, number>> = {
  IMAP: { tls: 993, starttls: 143, none: 143 },
  SMTP: { tls: 465, starttls: 587, none: 25 },
};

const serverDraft = (s: ServerSettings): ServerDraft => ({ host: s.host, port: String(s.port), tls: s.tls });

export function isPresetKey(value: string): value is PresetKey {
  return Object.hasOwn(mailPresets, value);
}

export function emptyDraft(): AccountDraft {
  return {
    step: 'address',
    address: '',
    found: null,
    checked: [],
    name: '',
    preset: 'custom',
    method: 'password',
    issuer: '',
    clientId: '',
    clientSecret: '',
    user: '',
    password: '',
    imap: { host: '', port: '993', tls: 'tls' },
    smtpOn: false,
    smtp: { host: '', port: '465', tls: 'tls' },
  };
}

// A preset fills in both servers as the provider publishes them; the user's name, login and password stay.
export function withPreset(draft: AccountDraft, preset: PresetKey | 'custom'): AccountDraft {
  if (preset === 'custom') return { ...draft, preset };
  const { imap, smtp } = mailPresets[preset];
  return { ...draft, preset, imap: serverDraft(imap), smtpOn: true, smtp: serverDraft(smtp) };
}

// Changing the TLS mode moves the port along when it still holds the usual port of the old mode (or none),
// so "STARTTLS" does not go on knocking at 993; a port the user typed stays.
export function withTls(kind: ServerKind, server: ServerDraft, tls: TlsMode): ServerDraft {
  const port = server.port.trim();
  const usual = port === '' || port === String(usualPorts[kind][server.tls]);
  return { ...server, tls, port: usual ? String(usualPorts[kind][tls]) : server.port };
}

// A typed port as a number; anything that is not all digits becomes NaN, which checkServer refuses.
function portOf(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The verdict on one server as typed; null while its host is still empty (nothing to judge yet). */
export function serverVerdict(kind: ServerKind, server: ServerDraft): Checked<ServerSettings> | null {
  if (server.host.trim() === '') return null;
  return checkServer(kind, { host: server.host.trim(), port: portOf(server.port), tls: server.tls });
}

// The sign-in presets by the short name a button says ("Sign in with Google").
const presetNames: Record<OAuthPresetName, string> = {
  google: 'Google',
  microsoft: 'Microsoft',
  yahoo: 'Yahoo',
  aol: 'AOL',
};
export const oauthMethods = Object.keys(oauthPresets) as OAuthPresetName[];
export const methodLabels: Record<SignInMethod, string> = {
  password: 'Password or app password',
  google: 'Google (Gmail, Workspace)',
  microsoft: 'Microsoft (Outlook.com, Microsoft 365)',
  yahoo: 'Yahoo',
  aol: 'AOL',
  issuer: 'Another provider’s sign-in (issuer address)',
};

export const isSignInMethod = (value: string): value is SignInMethod =>
  value === 'password' || value === 'issuer' || isOAuthPreset(value);

export const isOAuth = (draft: AccountDraft) => draft.method !== 'password';

/** The address step's answer by hand: the settings step with nothing found, the address as the login. */
export function byHand(draft: AccountDraft): AccountDraft {
  return { ...draft, step: 'settings', found: null, checked: [], user: draft.user || draft.address.trim() };
}

// The password preset whose IMAP server the settings name, for its app-password hint.
function presetOfHost(host: string): PresetKey | 'custom' {
  return presetKeys.find((key) => mailPresets[key].imap.host === host) ?? 'custom';
}

/** What the draft becomes from discovery's answer: its servers, login and sign-in, nothing ticked as checked. */
export function withDiscovery(draft: AccountDraft, found: Discovered): AccountDraft {
  const { settings } = found;
  const method: SignInMethod = settings.auth === 'password' ? 'password' : (settings.oauthPreset ?? 'issuer');
  return {
    ...draft,
    step: 'settings',
    found,
    checked: [],
    preset: presetOfHost(settings.imap.host),
    method,
    issuer: method === 'issuer' ? (settings.oauthIssuer ?? '') : '',
    user: settings.user,
    password: '',
    imap: serverDraft(settings.imap),
    smtpOn: settings.smtp !== null,
    smtp: settings.smtp ? serverDraft(settings.smtp) : emptyDraft().smtp,
  };
}

/**
 * The settings discovery could not vouch for that the person has not checked yet: none may be used until each is
 * ticked or edited. An SMTP server that is turned off is not used, so it needs no check.
 */
export function uncheckedSettings(draft: AccountDraft): SettingName[] {
  if (!draft.found) return [];
  const out: SettingName[] = [];
  for (const source of draft.found.sources) {
    if (source.verified || draft.checked.includes(source.setting) || out.includes(source.setting)) continue;
    if (source.setting === 'smtp' && !draft.smtpOn) continue;
    out.push(source.setting);
  }
  return out;
}

export function withChecked(draft: AccountDraft, setting: SettingName, on: boolean): AccountDraft {
  const rest = draft.checked.filter((s) => s !== setting);
  return { ...draft, checked: on ? [...rest, setting] : rest };
}

/** A server edited by hand: the person has looked at it, and it is no longer the provider preset's. */
export function withServer(draft: AccountDraft, which: 'imap' | 'smtp', server: ServerDraft): AccountDraft {
  return withChecked({ ...draft, [which]: server, preset: 'custom' }, which, true);
}

/**
 * Another way to sign in, chosen by the person (which is checking the sign-in). By hand, a provider's preset
 * fills in its servers; found settings stay as found.
 */
export function withMethod(draft: AccountDraft, method: SignInMethod): AccountDraft {
  const next = withChecked({ ...draft, method }, 'auth', true);
  if (draft.found || method === 'password' || method === 'issuer') return next;
  const { imap, smtp } = oauthPresets[method];
  return { ...next, preset: 'custom', imap: serverDraft(imap), smtpOn: true, smtp: serverDraft(smtp) };
}

/** The sign-in button's words: the provider's name, or the issuer's host. */
export function signInLabel(draft: AccountDraft): string {
  if (draft.method === 'password') return 'Save account';
  if (draft.method !== 'issuer') return `Sign in with ${presetNames[draft.method]}`;
  const checked = checkIssuer(draft.issuer);
  return checked.ok ? `Sign in with ${new URL(checked.issuer).host}` : 'Sign in';
}

const uncheckedReason = (unchecked: SettingName[]) => {
  const names = unchecked.map(
    (s) => ({ imap: 'the IMAP server', smtp: 'the SMTP server', auth: 'the sign-in' })[s],
  );
  return `Check ${names.join(' and ')} marked “Not verified”: tick “I checked it”, or correct it.`;
};

type Common = { name: string; user: string; imap: ServerSettings; smtp?: ServerSettings };

// What both Save and Sign in need, in the order the form asks for them.
function commonRequest(draft: AccountDraft): Checked<Common> {
  const unchecked = uncheckedSettings(draft);
  if (unchecked.length > 0) return { ok: false, reason: uncheckedReason(unchecked) };
  const user = draft.user.trim();
  if (user === '') return { ok: false, reason: 'Give the user name to log in with (usually the address).' };
  const imap = serverVerdict('IMAP', draft.imap);
  if (!imap) return { ok: false, reason: 'Give the IMAP server’s host name.' };
  if (!imap.ok) return imap;
  // Without a name of its own the account is called by its login, which is usually the address.
  const common: Common = { name: draft.name.trim() || user, user, imap: imap.value };
  if (draft.smtpOn) {
    const smtp = serverVerdict('SMTP', draft.smtp);
    if (!smtp) return { ok: false, reason: 'Give the SMTP server’s host name, or turn sending off.' };
    if (!smtp.ok) return smtp;
    common.smtp = smtp.value;
  }
  return { ok: true, value: common };
}

/** What Save sends, or the first thing that stops it, in the order the form asks for them. */
export function draftRequest(draft: AccountDraft): Checked<Request<'account:add'>> {
  if (isOAuth(draft)) return { ok: false, reason: 'This account signs in with its provider: press Sign in.' };
  const common = commonRequest(draft);
  if (!common.ok) return common;
  if (draft.password === '') return { ok: false, reason: 'Give the password (or app password).' };
  const { smtp, ...rest } = common.value;
  return { ok: true, value: { ...rest, password: draft.password, ...(smtp ? { smtp } : {}) } };
}

/** What Sign in sends (`account:oauthStart`), or the first thing that stops it. */
export function signInRequest(
  draft: AccountDraft,
  // The presets this build brings a client id for (`account:oauthPresets`' builtInClient).
  builtInClients: readonly string[] = [],
): Checked<Request<'account:oauthStart'>> {
  if (draft.method === 'password') return { ok: false, reason: 'This account logs in with a password.' };
  let provider: string = draft.method;
  if (draft.method === 'issuer') {
    if (draft.issuer.trim() === '')
      return { ok: false, reason: 'Give the sign-in server’s address (its issuer).' };
    const issuer = checkIssuer(draft.issuer);
    if (!issuer.ok) return issuer;
    provider = issuer.issuer;
  }
  const common = commonRequest(draft);
  if (!common.ok) return common;
  const clientId = draft.clientId.trim();
  const secret = draft.clientSecret.trim();
  if (clientId === '') {
    // The build's own client: its id and secret stay in the main process.
    if (builtInClients.includes(draft.method)) return { ok: true, value: { ...common.value, provider } };
    return { ok: false, reason: 'Give the client id of the app you registered with the provider.' };
  }
  return {
    ok: true,
    value: { ...common.value, provider, clientId, ...(secret ? { clientSecret: secret } : {}) },
  };
}

/** The address step's own check before asking Skimmer, whose discovery judges the rest with a sentence. */
export function addressProblem(address: string): string | null {
  return address.trim() === '' ? 'Type your email address.' : null;
}

// Where each provider that takes no sign-in from other apps (or not by default) has its app password made.
export const appPasswordHelp: Record<PresetKey, string> = {
  gmail:
    'Gmail takes an app password here only with 2-Step Verification on (Google Account → Security → App passwords); signing in with Google needs none.',
  fastmail: 'Fastmail wants an app password here: Settings → Privacy & Security → App passwords.',
  outlook:
    'Outlook.com and Microsoft 365 refuse passwords for IMAP and SMTP: choose Microsoft under “Sign in with”.',
  icloud:
    'iCloud wants an app-specific password here: Apple Account (account.apple.com) → Sign-In and Security → App-Specific Passwords.',
  yahoo:
    'Yahoo wants an app password here: Account Info → Account Security → Generate app password; or choose Yahoo under “Sign in with”.',
};
