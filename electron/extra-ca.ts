// The TLS roots for a request that trusts one extra CA (AppOptions.extraCa: the tests' CA, a company's own)
// beside the system's: undici's `ca` replaces the roots it is given, so the system's go with it. One place for
// that fact, used by sign-in (mail/oauth), the one-click unsubscribe (mail/unsubscribe) and the settings found
// from an address (mail/autoconfig: its config fetches and its probes).
import { rootCertificates } from 'node:tls';

/** The roots to give undici's `connect.ca`; undefined (the system's own) without an extra CA. */
export function rootsWith(extraCa: string | undefined): string[] | undefined {
  return extraCa ? [...rootCertificates, extraCa] : undefined;
}
