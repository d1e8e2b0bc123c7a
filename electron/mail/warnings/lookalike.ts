// The `lookalike` warning (DESIGN §11, "Warnings"): a sender's domain that imitates one you have real mail
// from, or a display name that shows another domain than the address. Pure; the domains you know come in as
// a KnownDomains (known-domains.ts loads it). Tested in lookalike.test.ts.
//
// Decisions:
// - Compared are registrable domains (`mail.example.com` → `example.com`), approximated without the Public
//   Suffix List: the last two labels, or three under a two-letter country code's second level (`co.uk`,
//   `com.au`). A sender under the same registrable domain as a known one is the same owner.
// - Three rules, each against the domains you know: one edit (insertion, deletion, substitution or swap of
//   neighbours; the brand must be 4 letters or more, since short names are one edit from many others), the
//   same skeleton (homoglyphs folded: Cyrillic and Greek look-alikes, 0/o, 1/l/i, rn/m, vv/w, accents, and
//   punycode read as the Unicode it encodes), and a label of the sender's domain that is a homoglyph of a
//   known brand without being it (`examp1e-login.example.net` against `example.com`).
// - A domain you wrote to is trusted: it is never itself called a look-alike (two of your correspondents may
//   be one letter apart). Domains known only because they mailed you are compared against, never trusted.
import { domainToUnicode } from 'node:url';
import { isDomainName } from '../../../shared/mail-address.ts';

type Imitation = { known: string; how: 'edit' | 'homoglyph' | 'label' };
const saidSize = 4096;

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
    const d = domain.toLowerCase();
    const base = registrable(d);
    if (trusted && !this.#trusted.has(base)) {
      this.#trusted.add(base);
      this.#said.clear();
    }
    if (this.#known.has(base)) return;
    this.#known.add(base);
    this.#said.clear();
    // The first domain known for a skeleton names it: the warning says which one is imitated.
    if (!this.#bySkeleton.has(skeleton(base))) this.#bySkeleton.set(skeleton(base), base);
    const b = brand(base);
    if (b.length >= 4) {
      if (!this.#byBrandSkeleton.has(skeleton(b))) this.#byBrandSkeleton.set(skeleton(b), base);
      for (const key of deletions(base)) {
        const list = this.#byDeletion.get(key) ?? [];
        list.push(base);
        this.#byDeletion.set(key, list);
      }
    }
  }

  has(domain: string): boolean {
    return this.#known.has(registrable(domain.toLowerCase()));
  }

  get size(): number {
    return this.#known.size;
  }

  /** The known domain `domain` imitates, and how; null when it imitates none. */
  imitated(domain: string): Imitation | null {
    const d = domain.toLowerCase();
    const said = this.#said.get(d);
    if (said !== undefined) return said;
    if (this.#said.size >= saidSize) this.#said.clear();
    const found = this.#compare(d);
    this.#said.set(d, found);
    return found;
  }

  #compare(d: string): Imitation | null {
    const base = registrable(d);
    if (this.#trusted.has(base)) return null;
    if (!this.#known.has(base)) {
      const same = this.#bySkeleton.get(skeleton(base));
      if (same && same !== base) return { known: same, how: 'homoglyph' };
      for (const key of deletions(base)) {
        for (const k of this.#byDeletion.get(key) ?? []) {
          if (k !== base && withinOneEdit(base, k)) return { known: k, how: 'edit' };
        }
      }
    }
    // A label (or a hyphen-separated part of one) that looks like a known brand without being it.
    for (const token of unicode(d).split(/[.-]/)) {
      const k = this.#byBrandSkeleton.get(skeleton(token));
      if (k && token !== brand(k) && token.length >= 4) return { known: k, how: 'label' };
    }
    return null;
  }
}

/** The sentence of the lookalike warning for this sender, or null. */
export function lookalikeText(from: { name: string; address: string }, known: KnownDomains): string | null {
  const domain = domainOf(from.address);
  if (!domain) return null;
  const hit = known.imitated(domain);
  if (hit) {
    const shown = unicode(domain) === domain ? domain : `${unicode(domain)} (${domain})`;
    if (hit.how === 'edit') {
      return `The sender's domain ${shown} is one letter away from ${hit.known}, which you have mail from.`;
    }
    if (hit.how === 'homoglyph') {
      return `The sender's domain ${shown} looks like ${hit.known}, which you have mail from, but is another domain.`;
    }
    return `The sender's domain ${shown} is made to look like ${hit.known}, which you have mail from.`;
  }
  const named = domainInName(from.name);
  if (named && registrable(named) !== registrable(domain)) {
    return `The sender's name shows ${named}, but the mail comes from ${domain}.`;
  }
  return null;
}

export function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : address
          .slice(at + 1)
          .trim()
          .toLowerCase();
  return domain.includes('.') ? domain : null;
}

// Second-level names under which country codes register (co.uk, com.au, ne.jp, …).
const secondLevels = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or', 'go', 'gob']);

export function registrable(domain: string): string {
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  const second = labels.at(-2) ?? '';
  const take = labels.length >= 3 && tld.length === 2 && secondLevels.has(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** The label before the public suffix: `example` of `example.co.uk`. */
function brand(base: string): string {
  return base.split('.')[0] ?? base;
}

function unicode(domain: string): string {
  if (!domain.includes('xn--')) return domain;
  return domainToUnicode(domain) || domain;
}

// Latin look-alikes (Unicode confusables, the common ones) and the ASCII tricks seen in phishing domains.
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'l',
  ї: 'l',
  ј: 'j',
  к: 'k',
  м: 'm',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  ԝ: 'w',
  ɡ: 'g',
  ı: 'l',
  ℓ: 'l',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'l',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  '0': 'o',
  '1': 'l',
  i: 'l',
  '|': 'l',
  '5': 's',
  '3': 'e',
};
const confusable = new RegExp(
  `[${Object.keys(CONFUSABLES)
    .join('')
    .replace(/[|\\\]-]/g, '\\$&')}]`,
  'gu',
);

/** What a domain looks like on screen: one spelling for every way of writing the same shapes. */
export function skeleton(text: string): string {
  return unicode(text)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(confusable, (ch) => CONFUSABLES[ch] ?? ch)
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/cl/g, 'd');
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

// Top-level names a display name's domain may end in: the common generic ones and two-letter country codes.
// Others ("St.Louis", "Dr.Who") are words, not domains, far more often.
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

/** A domain the display name shows ("PayPal.com Support", "service@paypal.com"), or null. */
export function domainInName(name: string): string | null {
  for (const match of name
    .toLowerCase()
    .matchAll(/(?:^|[^a-z0-9.-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?![a-z0-9-])/g)) {
    const domain = match[1] ?? '';
    const tld = domain.split('.').at(-1) ?? '';
    if (isDomainName(domain) && (tld.length === 2 || commonTlds.has(tld))) return domain;
  }
  return null;
}
