import { describe, expect, test } from 'vitest';
import {
  domainInName,
  KnownDomains,
  lookalikeText,
  registrable,
  skeleton,
  withinOneEdit,
} from './lookalike.ts';

const known = (...domains: string[]) => {
  const k = new KnownDomains();
  for (const d of domains) k.add(d, false);
  return k;
};

describe('withinOneEdit', () => {
  test.each([
    ['example', 'exarnple', false],
    ['example', 'exampel', true], // swap of neighbours
    ['example', 'examples', true],
    ['example', 'exmple', true],
    ['example', 'exbmple', true],
    ['example', 'example', true],
    ['example', 'elpmaxe', false],
    ['example', 'exampleco', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});

describe('skeleton', () => {
  test.each([
    ['examp1e', 'example'],
    ['exarnple', 'example'],
    ['pаypal', 'paypal'], // Cyrillic а
    ['xn--pypal-4ve', 'paypal'], // the punycode of the line above
    ['exámple', 'example'],
    ['PAYPAL', 'paypal'],
    ['vvikipedia', 'wlklpedla'],
  ])('%s reads as %s', (text, expected) => {
    expect(skeleton(text)).toBe(skeleton(expected));
  });
});

describe('registrable', () => {
  test.each([
    ['mail.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['shop.example.co.uk', 'example.co.uk'],
    ['a.b.example.net', 'example.net'],
    // The Public Suffix List: registries under other second levels, and hosts that give out subdomains.
    ['shop.example.ltd.uk', 'example.ltd.uk'],
    ['news.example.com.au', 'example.com.au'],
    ['paypal.github.io', 'paypal.github.io'],
    ['a.b.example.kawasaki.jp', 'b.example.kawasaki.jp'],
  ])('%s belongs to %s', (domain, base) => {
    expect(registrable(domain)).toBe(base);
  });
});

describe('KnownDomains.imitated', () => {
  test('finds a domain one edit away from a known one', () => {
    expect(known('contoso.com').imitated('contosso.com')).toEqual({ known: 'contoso.com', how: 'edit' });
    expect(known('contoso.com').imitated('mail.contoso.com')).toBeNull();
  });

  test('finds the issue’s own example: partner.examp1e against partner.example', () => {
    const k = new KnownDomains();
    k.add('partner.example', false);
    expect(k.imitated('partner.examp1e')).toMatchObject({ known: 'partner.example' });
  });

  test('finds homoglyphs and their punycode form', () => {
    expect(known('paypal.com').imitated('xn--pypal-4ve.com')).toEqual({
      known: 'paypal.com',
      how: 'homoglyph',
    });
    expect(known('example.com').imitated('exarnple.com')).toEqual({ known: 'example.com', how: 'homoglyph' });
  });

  test('finds a known brand imitated in a label of another domain', () => {
    expect(known('example.com', 'example.net').imitated('examp1e-login.example.net')).toEqual({
      known: 'example.com',
      how: 'label',
    });
    // The registrable domain's own brand, a homoglyph under another suffix.
    expect(known('paypal.com').imitated('secure.paypa1.support')).toEqual({
      known: 'paypal.com',
      how: 'homoglyph',
    });
  });

  test('leaves the known domain, its subdomains and unrelated domains alone', () => {
    const k = known('example.com', 'example.org', 'example.net');
    expect(k.imitated('example.com')).toBeNull();
    expect(k.imitated('news.example.net')).toBeNull();
    expect(k.imitated('devopsmonthly.example.net')).toBeNull();
    expect(k.imitated('fabrikam.com')).toBeNull();
  });

  test('never calls a short brand a look-alike for one edit', () => {
    expect(known('ibm.com').imitated('ibn.com')).toBeNull();
  });

  test('never calls a domain you wrote to a look-alike', () => {
    const k = new KnownDomains();
    k.add('contoso.com', false);
    k.add('contosa.com', true);
    expect(k.imitated('contosa.com')).toBeNull();
  });

  test('answers again once the domains known change: a domain learnt, one you wrote to', () => {
    // imitated() keeps what it said of a domain until the known domains change (lookalike.ts).
    const k = new KnownDomains();
    expect(k.imitated('contosso.com')).toBeNull();
    k.add('contoso.com', false);
    expect(k.imitated('contosso.com')).toEqual({ known: 'contoso.com', how: 'edit' });
    // Known again, nothing changes: the same answer.
    k.add('mail.contoso.com', false);
    expect(k.imitated('contosso.com')).toEqual({ known: 'contoso.com', how: 'edit' });
    // Learnt itself: no longer a look-alike of another.
    k.add('contosso.com', false);
    expect(k.imitated('contosso.com')).toBeNull();
    expect(k.imitated('contosa.com')).toEqual({ known: 'contoso.com', how: 'edit' });
    k.add('contosa.com', true);
    expect(k.imitated('contosa.com')).toBeNull();
    // A domain known already, written to later: only the trust changes.
    k.add('example.com', false);
    k.add('examp1e-login.example.net', false);
    expect(k.imitated('examp1e-login.example.net')).toMatchObject({ known: 'example.com', how: 'label' });
    k.add('examp1e-login.example.net', true);
    expect(k.imitated('examp1e-login.example.net')).toBeNull();
  });
});

describe('lookalikeText', () => {
  test('says which known domain the sender imitates', () => {
    expect(
      lookalikeText({ name: 'IT', address: 'helpdesk@examp1e-login.example.net' }, known('example.com')),
    ).toBe(
      "The sender's domain examp1e-login.example.net is made to look like example.com, which you have mail from.",
    );
  });

  test('shows a punycode domain in both forms', () => {
    expect(lookalikeText({ name: '', address: 'service@xn--pypal-4ve.com' }, known('paypal.com'))).toBe(
      "The sender's domain pаypal.com (xn--pypal-4ve.com) looks like paypal.com, which you have mail from, but is another domain.",
    );
  });

  test('flags a display name that shows another domain than the address', () => {
    expect(lookalikeText({ name: 'PayPal.com Support', address: 'help@mailer.example.net' }, known())).toBe(
      "The sender's name shows paypal.com, but the mail comes from mailer.example.net.",
    );
    expect(lookalikeText({ name: 'service@paypal.com', address: 'x@evil.example' }, known())).toContain(
      'paypal.com',
    );
  });

  test('accepts a display name that shows the sender’s own domain', () => {
    expect(
      lookalikeText({ name: 'Example.com Billing', address: 'billing@mail.example.com' }, known()),
    ).toBeNull();
    expect(
      lookalikeText({ name: 'Ana Müller', address: 'ana@example.com' }, known('example.com')),
    ).toBeNull();
  });
});

describe('domainInName', () => {
  test.each([
    ['PayPal.com Support', 'paypal.com'],
    ['Amazon.de', 'amazon.de'],
    ['"support@bank.example.co.uk"', 'bank.example.co.uk'],
    ['Dr. Who', null],
    ['St.Louis Office', null],
    ['J.R.R. Tolkien', null],
    ['Version 2.4 release', null],
  ])('%s shows %s', (name, domain) => {
    expect(domainInName(name)).toBe(domain);
  });
});

// The red team's crafted senders (issue 17's report, item 6), PayPal, Google and Amazon known from real mail;
// benign controls among them. `says` is the warning's whole text, null for none.
type Case = { name?: string; address: string; known?: string[]; trusted?: string[]; says: string | null };
const brands = ['paypal.com', 'google.com', 'amazon.com'];
const named = (domain: string, known: string, owner: string) =>
  `The sender's domain ${domain} uses the name of ${known}, which you have mail from, but belongs to ${owner}.`;
const suffix = (domain: string, known: string) =>
  `The sender's domain ${domain} has the name of ${known}, which you have mail from, under another ending: it may belong to someone else.`;
const looks = (domain: string, known: string) =>
  `The sender's domain ${domain} looks like ${known}, which you have mail from, but is another domain.`;
const madeToLook = (domain: string, known: string) =>
  `The sender's domain ${domain} is made to look like ${known}, which you have mail from.`;
const oneLetter = (domain: string, known: string) =>
  `The sender's domain ${domain} is one letter away from ${known}, which you have mail from.`;
const shows = (shown: string, domain: string) =>
  `The sender's name shows ${shown}, but the mail comes from ${domain}.`;

const crafted: Record<string, Case> = {
  // The exact brand as a label of another domain.
  'brand.com as labels': {
    address: 'service@paypal.com.evil.example',
    says: named('paypal.com.evil.example', 'paypal.com', 'evil.example'),
  },
  'brand as a subdomain': {
    address: 'a@login.paypal.evil.example',
    says: named('login.paypal.evil.example', 'paypal.com', 'evil.example'),
  },
  'brand-word label': {
    address: 'a@paypal-secure.evil.example',
    says: named('paypal-secure.evil.example', 'paypal.com', 'evil.example'),
  },
  'word-brand label': {
    address: 'a@secure-paypal.evil.example',
    says: named('secure-paypal.evil.example', 'paypal.com', 'evil.example'),
  },
  'brand-word registrable': {
    address: 'a@paypal-secure.com',
    says: named('paypal-secure.com', 'paypal.com', 'paypal-secure.com'),
  },
  'brand.com-word label': {
    address: 'a@google.com-verify.evil.example',
    says: named('google.com-verify.evil.example', 'google.com', 'evil.example'),
  },
  'brand under accounts.': {
    address: 'a@accounts.google.evil.example',
    says: named('accounts.google.evil.example', 'google.com', 'evil.example'),
  },
  'brand over a hyphenated domain': {
    address: 'a@amazon.account-update.example',
    says: named('amazon.account-update.example', 'amazon.com', 'account-update.example'),
  },
  'brand-billing label': {
    address: 'a@amazon-billing.evil.example',
    says: named('amazon-billing.evil.example', 'amazon.com', 'evil.example'),
  },
  'brand over a co.uk domain': {
    address: 'a@paypal.evil.co.uk',
    says: named('paypal.evil.co.uk', 'paypal.com', 'evil.co.uk'),
  },
  'brand on a known hosting domain': {
    address: 'a@paypal.example.net',
    known: [...brands, 'example.net'],
    says: named('paypal.example.net', 'paypal.com', 'example.net'),
  },
  // The brand under another public suffix.
  'brand.net': { address: 'service@paypal.net', says: suffix('paypal.net', 'paypal.com') },
  'brand.co.jp': { address: 'a@amazon.co.jp', says: suffix('amazon.co.jp', 'amazon.com') },
  'brand.de': { address: 'a@amazon.de', says: suffix('amazon.de', 'amazon.com') },
  'brand.co.uk': { address: 'a@paypal.co.uk', says: suffix('paypal.co.uk', 'paypal.com') },
  'subdomain of brand.ru': {
    address: 'a@accounts.google.ru',
    says: suffix('accounts.google.ru', 'google.com'),
  },
  'brand.security': { address: 'a@google.security', says: suffix('google.security', 'google.com') },
  'brand under a private suffix': {
    address: 'a@paypal.github.io',
    says: suffix('paypal.github.io', 'paypal.com'),
  },
  // Homoglyphs, from Unicode's confusables (UTS #39), Unicode or punycode.
  'Latin alpha': { address: 'a@pɑypɑl.com', says: looks('pɑypɑl.com (xn--pypl-q5bc.com)', 'paypal.com') },
  'Latin alpha, punycode': {
    address: 'a@xn--pypl-q5bc.com',
    says: looks('pɑypɑl.com (xn--pypl-q5bc.com)', 'paypal.com'),
  },
  'Armenian oh': { address: 'a@gօօgle.com', says: looks('gօօgle.com (xn--ggle-vifa.com)', 'google.com') },
  'Armenian oh, punycode': {
    address: 'a@xn--ggle-vifa.com',
    says: looks('gօօgle.com (xn--ggle-vifa.com)', 'google.com'),
  },
  'Cyrillic under another suffix': {
    address: 'a@xn--pypl-53dc.net',
    says: looks('pаypаl.net (xn--pypl-53dc.net)', 'paypal.com'),
  },
  'Cyrillic under co.jp': {
    address: 'a@аmаzоn.co.jp',
    says: looks('аmаzоn.co.jp (xn--mzn-5cdb9f.co.jp)', 'amazon.com'),
  },
  'Latin alpha in a label': {
    address: 'a@xn--pypl-login-ggec.evil.example',
    says: madeToLook('pɑypɑl-login.evil.example (xn--pypl-login-ggec.evil.example)', 'paypal.com'),
  },
  'Greek omicron in a label': {
    address: 'a@gοogle-login.evil.example',
    says: madeToLook('gοogle-login.evil.example (xn--gogle-login-7ei.evil.example)', 'google.com'),
  },
  'Cyrillic a': {
    address: 'a@xn--mazon-3ve.com',
    says: looks('аmazon.com (xn--mazon-3ve.com)', 'amazon.com'),
  },
  'Greek omicron': {
    address: 'a@xn--amazn-uce.com',
    says: looks('amazοn.com (xn--amazn-uce.com)', 'amazon.com'),
  },
  'digit zero': { address: 'a@amaz0n.com', says: looks('amaz0n.com', 'amazon.com') },
  'digits zero': { address: 'a@g00gle.com', says: looks('g00gle.com', 'google.com') },
  'rn for m': { address: 'a@arnazon.com', says: looks('arnazon.com', 'amazon.com') },
  'digit one in a label': {
    address: 'a@paypa1-login.evil.example',
    says: madeToLook('paypa1-login.evil.example', 'paypal.com'),
  },
  // One letter away.
  'a letter more': { address: 'a@paypall.com', says: oneLetter('paypall.com', 'paypal.com') },
  'a letter less': { address: 'a@amazn.com', says: oneLetter('amazn.com', 'amazon.com') },
  'a letter less, Google': { address: 'a@gogle.com', says: oneLetter('gogle.com', 'google.com') },
  // Display names with hidden or full-width characters, or shaped as an address with any suffix.
  'zero-width space in the name': {
    name: 'yourbank\u200b.com',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'full-width full stop in the name': {
    name: 'yourbank\uff0ecom',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'full-width letters in the name': {
    name: 'ｙｏｕｒｂａｎｋ．ｃｏｍ',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'ideographic full stop in the name': {
    name: 'yourbank\u3002com',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'soft hyphen in the name': {
    name: 'yourbank\u00ad.com',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'zero-width space in the top-level name': {
    name: 'yourbank.c\u200bom',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'word joiner, then words': {
    name: 'YourBank\u2060.com Security',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  'address-shaped name, any suffix': {
    name: 'support@yourbank.security',
    address: 'alerts@evil.example',
    says: shows('yourbank.security', 'evil.example'),
  },
  'address-shaped name in parentheses': {
    name: 'Your Bank (alerts@yourbank.online)',
    address: 'alerts@evil.example',
    says: shows('yourbank.online', 'evil.example'),
  },
  'address-shaped name, common suffix': {
    name: 'noreply@yourbank.com',
    address: 'alerts@evil.example',
    says: shows('yourbank.com', 'evil.example'),
  },
  // Benign: the known domains, their subdomains, their own other domains, unrelated senders.
  'a known domain itself': { name: 'PayPal', address: 'service@paypal.com', says: null },
  'a subdomain of a known domain': { address: 'service@mail.paypal.com', says: null },
  'Amazon’s mail subdomain': { name: 'Amazon.com', address: 'ship-confirm@email.amazon.com', says: null },
  'a deep subdomain of Google': { name: 'Google', address: 'no-reply@accounts.google.com', says: null },
  'a brand word inside another word': { address: 'a@googlemail.com', says: null },
  'Amazon’s sending domain': { address: 'a@amazonses.com', says: null },
  'PayPal’s assets domain': { address: 'a@paypalobjects.com', says: null },
  'an unrelated sender': { name: 'Fabrikam News', address: 'news@fabrikam.example', says: null },
  'an unrelated Unicode domain': { name: 'Ana Müller', address: 'ana@müller.example', says: null },
  'a brand label on a domain you wrote to': {
    address: 'a@google.partner.example',
    trusted: ['partner.example'],
    says: null,
  },
  'a common word known as a brand': {
    address: 'a@mail.fabrikam.example',
    known: [...brands, 'mail.ru'],
    says: null,
  },
  'a common word’s look-alike': {
    address: 'a@mall.fabrikam.example',
    known: [...brands, 'mail.ru'],
    says: null,
  },
  'an address-shaped name of the sender’s own domain': {
    name: 'alerts@yourbank.security',
    address: 'alerts@mx.yourbank.security',
    says: null,
  },
  'the brand under another suffix you know too': {
    address: 'a@amazon.de',
    known: [...brands, 'amazon.de'],
    says: null,
  },
  'another of the documentation domains (RFC 2606)': {
    address: 'billing@example.org',
    known: ['example.com'],
    says: null,
  },
  'a name with a dot that is no domain': {
    name: 'St.Louis Office',
    address: 'office@fabrikam.example',
    says: null,
  },
  'a name with a version number': { name: 'Release 2.4 notes', address: 'news@fabrikam.example', says: null },
};

describe('lookalikeText on crafted senders', () => {
  test.each(Object.entries(crafted))('%s', (_, c) => {
    const k = new KnownDomains();
    for (const d of c.known ?? brands) k.add(d, false);
    for (const d of c.trusted ?? []) k.add(d, true);
    expect(lookalikeText({ name: c.name ?? '', address: c.address }, k)).toBe(c.says);
  });
});
