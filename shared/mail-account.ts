// What a mail account's server settings may be (issue 5), checked before anything is stored or any
// connection is made; pure, so the account form shows the same verdicts the main process enforces.
import { isLoopback } from './loopback.ts';

export type TlsMode = 'tls' | 'starttls' | 'none';
export type ServerSettings = { host: string; port: number; tls: TlsMode };

// Host names of the common providers (their published IMAP/SMTP settings). Gmail, Outlook, iCloud and
// Yahoo want an app password (or OAuth2, which this account model leaves room for).
export const mailPresets = {
  gmail: {
    label: 'Gmail',
    imap: { host: 'imap.gmail.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.gmail.com', port: 465, tls: 'tls' },
  },
  fastmail: {
    label: 'Fastmail',
    imap: { host: 'imap.fastmail.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.fastmail.com', port: 465, tls: 'tls' },
  },
  outlook: {
    label: 'Outlook.com / Microsoft 365',
    imap: { host: 'outlook.office365.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.office365.com', port: 587, tls: 'starttls' },
  },
  icloud: {
    label: 'iCloud Mail',
    imap: { host: 'imap.mail.me.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.mail.me.com', port: 587, tls: 'starttls' },
  },
  yahoo: {
    label: 'Yahoo Mail',
    imap: { host: 'imap.mail.yahoo.com', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.mail.yahoo.com', port: 465, tls: 'tls' },
  },
} as const satisfies Record<string, { label: string; imap: ServerSettings; smtp: ServerSettings }>;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A host name or IP address as a URL would hold it (IPv4 forms folded, lower-cased), or null. */
export function normaliseHost(input: string): string | null {
  const host = input.trim();
  if (host === '' || /[\s/?#@:]/.test(host.replace(/^\[[0-9a-f:.]+\]$/i, ''))) return null;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

/**
 * The server settings as they will be stored, or why not. SECURITY: without TLS the password and the mail
 * cross the network in the clear, so `none` is refused for any host that is not this computer.
 */
export function checkServer(what: 'IMAP' | 'SMTP', s: ServerSettings): Checked<ServerSettings> {
  const host = normaliseHost(s.host);
  if (!host) return { ok: false, reason: `The ${what} host "${s.host}" is not a host name or address.` };
  if (!Number.isInteger(s.port) || s.port < 1 || s.port > 65535) {
    return { ok: false, reason: `The ${what} port must be a number from 1 to 65535.` };
  }
  if (s.tls === 'none' && !isLoopback(host)) {
    return {
      ok: false,
      reason: `Without TLS the password and mail would cross the network unencrypted; ${what} without TLS is allowed only on this computer (localhost).`,
    };
  }
  return { ok: true, value: { host, port: s.port, tls: s.tls } };
}
