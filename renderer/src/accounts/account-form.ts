// The "Add account" form as the user fills it in, and the request it becomes. A provider preset fills in the
// servers; ports are typed as text; each server gets the verdict of `checkServer`, the same rule the main
// process enforces when it saves (shared/mail-account.ts), so the form says what is wrong before Save does.
// Pure; tested in account-form.test.ts.
import type { Request } from '../../../shared/contract/index.ts';
import {
  type Checked,
  checkServer,
  mailPresets,
  type ServerSettings,
  type TlsMode,
} from '../../../shared/mail-account.ts';

export type PresetKey = keyof typeof mailPresets;
export type ServerDraft = { host: string; port: string; tls: TlsMode };
export type AccountDraft = {
  name: string;
  preset: PresetKey | 'custom';
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
    name: '',
    preset: 'custom',
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

/** What Save sends, or the first thing that stops it, in the order the form asks for them. */
export function draftRequest(draft: AccountDraft): Checked<Request<'account:add'>> {
  const user = draft.user.trim();
  if (user === '') return { ok: false, reason: 'Give the user name to log in with (usually the address).' };
  if (draft.password === '') return { ok: false, reason: 'Give the password (or app password).' };
  const imap = serverVerdict('IMAP', draft.imap);
  if (!imap) return { ok: false, reason: 'Give the IMAP server’s host name.' };
  if (!imap.ok) return imap;
  const request: Request<'account:add'> = {
    // Without a name of its own the account is called by its login, which is usually the address.
    name: draft.name.trim() || user,
    user,
    password: draft.password,
    imap: imap.value,
  };
  if (draft.smtpOn) {
    const smtp = serverVerdict('SMTP', draft.smtp);
    if (!smtp) return { ok: false, reason: 'Give the SMTP server’s host name, or turn sending off.' };
    if (!smtp.ok) return smtp;
    request.smtp = smtp.value;
  }
  return { ok: true, value: request };
}
