// Mail addresses: what counts as one recipient, the form two addresses are compared in (DESIGN §7
// "Provenance"), and an address header read as a list of mailboxes (DESIGN §11, replies). Pure and in shared/,
// so the composer in the renderer and the main process read addresses with the one parser; tested in
// mail-address.test.ts.
//
// Decisions taken here:
// - A recipient is exactly one bare address, `local@domain`, read by nodemailer's addressparser: the parser
//   that reads it again when the message is composed (mail/send/compose.ts), so the string an approval card
//   shows is the one mailbox the mail goes to. A display name, a list, a group or a comment is refused.
// - Local part: a dot-atom of RFC 5322 atext (letters, digits and ``!#$%&'*+/=?^_`{|}~-``, dots between),
//   at most 64 characters, ASCII only; quoted local parts are refused. So `x'priya@example.com` is a valid
//   address, and a different one from `priya@example.com`.
// - Domain: a host name (see `isDomainName`); IP literals (`a@[1.2.3.4]`) are refused. A Unicode domain is
//   refused too: the model can write its `xn--` form, and the card then shows what a look-alike really is.
// - Two addresses are the same when their `addressKey`s are: trimmed, the whole address lower-cased. The
//   domain is case-insensitive by RFC 5321; the local part may in theory be case-sensitive, but every
//   large provider ignores its case, and a look-alike that differs only in case is a mailbox on the same
//   domain, which its owner controls. Treating `Priya@x` and `priya@x` as one spares the user a card.
// - An address header (a Reply-To, a To typed in the composer) is read by the same addressparser, groups
//   flattened into their members: `team: a@x, b@x;` is the two mailboxes a reply goes to.
import addressparser from 'nodemailer/lib/addressparser';
import type { Address } from './contract/index.ts';

const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LOCAL_PART = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * The last label of a host name: 2–24 letters (any script: `рф` is one) or a punycode `xn--` label. Digits
 * are refused, so versions and numbers (`v1.2`, `2.4`, `12.30`) are never hosts; one letter is refused, so
 * abbreviations (`e.g.`, `i.e.`, `a.m.`) are not either. The longest delegated TLD is 18 letters (IANA's
 * list in 2026); 24 leaves room.
 */
export function isTopLevelLabel(label: string): boolean {
  return /^(?:[\p{L}\p{M}]{2,24}|xn--[a-z0-9-]{1,59})$/iu.test(label);
}

/** An ASCII host name of two or more labels, at most 253 characters, ending in a `isTopLevelLabel`. */
export function isDomainName(name: string): boolean {
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  return (
    name.length <= 253 &&
    labels.length >= 2 &&
    labels.every((l) => ASCII_LABEL.test(l)) &&
    isTopLevelLabel(last)
  );
}

/** The address when `text` (trimmed) is exactly one valid bare address, else null. */
export function parseMailbox(text: string): string | null {
  const address = text.trim();
  if (address.length > 320) return null;
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (at < 1 || local.length > 64 || !LOCAL_PART.test(local) || !isDomainName(domain)) return null;
  // SECURITY: the string must be read back as this one mailbox by the parser that composes the message;
  // otherwise the card would show one recipient and the mail go to another (`a@b.com<evil@x.example>`).
  const read = addressparser(address);
  const only = read.length === 1 ? read[0] : undefined;
  if (!only || only.group || only.name !== '' || only.address !== address) return null;
  return address;
}

/** The form in which two addresses are compared: trimmed and lower-cased (see the decisions above). */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * The mailboxes of an address header, in order, groups flattened into their members; entries with no address
 * (a group's name alone, `undisclosed-recipients:;`) are left out. Names and addresses are trimmed and kept
 * to one line.
 */
export function parseAddressList(header: string): Address[] {
  return addressparser(header, { flatten: true })
    .map((m) => ({ name: oneLine(m.name), address: oneLine(m.address) }))
    .filter((m) => m.address !== '');
}

// SECURITY: a name or address goes back into a header and into the quote's first line; a line break there
// would start another header or line of the user's own.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
