// The Message-ID of mail Skimmer writes (a send, a draft's server copy; issue 29 §7): unique by its time and a
// random part, at the sender's own domain as RFC 5322 §3.6.4 advises (`skimmer.invalid` told every receiving
// server the mail came from nowhere, which spam filters weigh). A domain in Unicode is written in punycode, as
// a header must be ASCII; only when no address is known at all does it fall back to `skimmer.invalid`.
import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import type { Db } from '../db/open.ts';

const fallbackDomain = 'skimmer.invalid';

/** The domain part of `address` in ASCII, or null when it has none that could name a host. */
function domainOf(address: string | null | undefined): string | null {
  const at = address?.lastIndexOf('@') ?? -1;
  if (!address || at < 0) return null;
  const ascii = domainToASCII(
    address
      .slice(at + 1)
      .trim()
      .replace(/>$/, '')
      .toLowerCase(),
  );
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(ascii) ? ascii : null;
}

/** `<kind.time.random@domain>`: `kind` says what wrote it (`skimmer`, `skimmer-draft.ID`). */
export function newMessageId(kind: string, from: string | null | undefined, at: number): string {
  const random = randomBytes(6).toString('hex');
  return `<${kind}.${at}.${random}@${domainOf(from) ?? fallbackDomain}>`;
}

/** An account's login, which is the From of what it sends with no address of its own (outbox.ts sendDue). */
export function prepareAccountLogin(db: Db): (accountId: number) => string | undefined {
  const login = db
    .prepare<[number], string>('SELECT username FROM imap_accounts WHERE account_id = ?')
    .pluck();
  return (accountId) => login.get(accountId);
}
