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
    expect(known('paypal.com').imitated('secure.paypa1.support')).toEqual({
      known: 'paypal.com',
      how: 'label',
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
