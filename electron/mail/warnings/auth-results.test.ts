import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authFailures, parseAuthResults } from './auth-results.ts';
import { readTrustHeaders } from './trust-headers.ts';

const raw = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../../fixtures/auth-results', `${name}.txt`));
const fixture = (name: string) => readTrustHeaders(raw(name));
/** The domain of the fixture's From. */
const fromDomain = (name: string) => /^From:.*@([^>\s]+)/m.exec(raw(name).toString('utf8'))?.[1] ?? null;

describe('authFailures on real headers', () => {
  test.each([
    ['gmail-pass', []],
    ['microsoft-365-pass', []],
    ['fastmail-pass', []],
    ['postfix-opendmarc-pass', []],
    [
      'gmail-fail',
      [
        { method: 'spf', domain: 'paypal.com' },
        { method: 'dkim', domain: 'paypal.com' },
        { method: 'dmarc', domain: 'paypal.com' },
      ],
    ],
    [
      'microsoft-365-fail',
      [
        { method: 'spf', domain: 'contoso.com' },
        { method: 'dmarc', domain: 'contoso.com' },
      ],
    ],
    // Two failed signatures and no passing one; a softfail is not a failure.
    [
      'fastmail-fail',
      [
        { method: 'dkim', domain: 'example.org' },
        { method: 'dmarc', domain: 'example.org' },
      ],
    ],
    // Three fields by one server; the forged "dkim=pass" with its id further down hides nothing.
    [
      'postfix-opendmarc-fail',
      [
        { method: 'spf', domain: 'attacker.example.net' },
        { method: 'dkim', domain: 'example.com' },
        { method: 'dmarc', domain: 'example.com' },
      ],
    ],
  ])('%s reports %j', (name, expected) => {
    expect(authFailures(fixture(name).authenticationResults, fromDomain(name))).toEqual(expected);
  });

  test('reads only the topmost server: a relay further down that passed does not count', () => {
    const fields = fixture('microsoft-365-fail').authenticationResults;
    expect(fields).toHaveLength(2);
    expect(parseAuthResults(fields[1] ?? '').authservId).toBe('relay.example.net');
    expect(authFailures(fields.slice(1), fromDomain('microsoft-365-fail'))).toEqual([]);
  });

  test('a message without the header has no failures', () => {
    expect(authFailures([], 'example.com')).toEqual([]);
  });
});

describe('parseAuthResults', () => {
  test('reads the authserv-id, methods, results and properties of a Gmail header', () => {
    const parsed = parseAuthResults(fixture('gmail-pass').authenticationResults[0] ?? '');
    expect(parsed.authservId).toBe('mx.google.com');
    expect(parsed.results.map((r) => `${r.method}=${r.result}`)).toEqual([
      'dkim=pass',
      'spf=pass',
      'dmarc=pass',
    ]);
    expect(parsed.results[1]?.props['smtp.mailfrom']).toBe('noreply@github.com');
    expect(parsed.results[2]?.props['header.from']).toBe('github.com');
  });

  test('reads a Microsoft 365 header that has no authserv-id', () => {
    const parsed = parseAuthResults(fixture('microsoft-365-pass').authenticationResults[0] ?? '');
    expect(parsed.authservId).toBeNull();
    expect(parsed.results.map((r) => r.method)).toEqual(['spf', 'dkim', 'dmarc', 'compauth']);
    expect(parsed.results[3]?.props.reason).toBe('100');
  });

  test('skips nested comments and keeps quoted values whole', () => {
    const parsed = parseAuthResults(
      'mx.example; dkim=fail reason="bad (really); sig" (outer (inner) comment) header.d=example.com; spf=none',
    );
    expect(parsed.results).toEqual([
      { method: 'dkim', result: 'fail', props: { reason: 'bad (really); sig', 'header.d': 'example.com' } },
      { method: 'spf', result: 'none', props: {} },
    ]);
  });

  test('reads a version after the authserv-id and "none" as no result', () => {
    expect(parseAuthResults('example.org 1; none')).toEqual({ authservId: 'example.org', results: [] });
  });

  test('accepts a method version and spaces around "=" and "."', () => {
    const parsed = parseAuthResults('mx.example; dkim/1 = fail header . d = example.com');
    expect(parsed.results).toEqual([
      { method: 'dkim', result: 'fail', props: { 'header.d': 'example.com' } },
    ]);
  });
});

describe('readTrustHeaders', () => {
  test('reads Reply-To addresses, lower-cased', () => {
    expect(fixture('gmail-fail').replyTo).toEqual(['support@paypa1-help.example']);
  });

  test('stops at the end of the header block', () => {
    const raw = Buffer.from('From: a@example.com\r\n\r\nAuthentication-Results: x; spf=fail\r\n');
    expect(readTrustHeaders(raw)).toEqual({ authenticationResults: [], replyTo: [] });
  });
});

// The red team's crafted headers (issue 17's report, item 7): what the sender controls (the envelope sender,
// its own DKIM signature) must not hide a failure.
describe('authFailures on crafted headers', () => {
  const gmail = (...results: string[]) =>
    `mx.google.com;\r\n       ${results.join(';\r\n       ')}`.replace(/\r\n/g, ' ');

  test('a "(" in a quoted local part, copied into a comment, hides no dmarc=fail after it', () => {
    const field = gmail(
      'dkim=pass header.i=@evil.example header.s=s1 header.b=QmFk',
      'spf=pass (google.com: domain of "a(b"@evil.example designates 203.0.113.9 as permitted sender) smtp.mailfrom="a(b"@evil.example',
      'dmarc=fail (p=REJECT sp=REJECT dis=QUARANTINE) header.from=paypal.com',
    );
    expect(authFailures([field], 'paypal.com')).toEqual([{ method: 'dmarc', domain: 'paypal.com' }]);
  });

  test('a ")" in a quoted local part inside a comment hides no dmarc=fail either', () => {
    const field = gmail(
      'spf=pass (google.com: domain of "a)b"@evil.example designates 203.0.113.9 as permitted sender) smtp.mailfrom="a)b"@evil.example',
      'dmarc=fail (p=REJECT sp=REJECT dis=QUARANTINE) header.from=paypal.com',
    );
    expect(authFailures([field], 'paypal.com')).toEqual([{ method: 'dmarc', domain: 'paypal.com' }]);
  });

  test('smtp.mailfrom="a(b"@x is read whole: its domain is named', () => {
    const field =
      'mail.northwind.example; spf=fail smtp.mailfrom="a(b"@evil.example; dmarc=fail header.from=paypal.com';
    expect(authFailures([field], 'paypal.com')).toEqual([
      { method: 'spf', domain: 'evil.example' },
      { method: 'dmarc', domain: 'paypal.com' },
    ]);
  });

  test('a quote that never closes hides no result after it', () => {
    const field =
      'mail.northwind.example; spf=fail smtp.mailfrom=a"b@evil.example; dmarc=fail header.from=paypal.com';
    expect(authFailures([field], 'paypal.com')).toEqual([
      { method: 'spf', domain: 'evil.example' },
      { method: 'dmarc', domain: 'paypal.com' },
    ]);
  });

  test('a comment that never closes hides no result after it', () => {
    const field =
      'mail.northwind.example; spf=none (no record for a(b@evil.example; dmarc=fail header.from=paypal.com';
    expect(authFailures([field], 'paypal.com')).toEqual([{ method: 'dmarc', domain: 'paypal.com' }]);
  });

  test('a dkim=pass smuggled in the envelope sender does not excuse the From domain’s failed signature', () => {
    const sender = '"x)b; dkim=pass header.d=paypal.com; (y"@evil.example';
    const field = gmail(
      'dkim=fail header.i=@paypal.com header.s=pp-dkim1 header.b=QmFk',
      `spf=pass (google.com: domain of ${sender} designates 203.0.113.9 as permitted sender) smtp.mailfrom=${sender}`,
    );
    expect(authFailures([field], 'paypal.com')).toEqual([{ method: 'dkim', domain: 'paypal.com' }]);
  });

  test('the sender’s own passing signature does not excuse a failed one of the From domain', () => {
    const field =
      'mail.northwind.example; dkim=pass header.d=evil.example header.s=s1; dkim=fail reason="signature verification failed" header.d=paypal.com header.s=pp; spf=pass smtp.mailfrom=bounce@evil.example';
    expect(authFailures([field], 'paypal.com')).toEqual([{ method: 'dkim', domain: 'paypal.com' }]);
  });

  test.each([
    ['a domain that ends like it', 'paypal.com.evil.example', 'paypal.com'],
    ['another domain under co.uk', 'evil.co.uk', 'paypal.co.uk'],
    ['another site under a private suffix', 'evil.github.io', 'paypal.github.io'],
  ])('a pass for %s is no pass for the From domain', (_, passing, from) => {
    const field = `mail.northwind.example; dkim=pass header.d=${passing}; dkim=fail header.d=${from}`;
    expect(authFailures([field], from)).toEqual([{ method: 'dkim', domain: from }]);
  });

  test('a pass without a signing domain, or for mail without a From domain, excuses nothing', () => {
    expect(authFailures(['mx.example; dkim=pass; dkim=fail header.d=paypal.com'], 'paypal.com')).toEqual([
      { method: 'dkim', domain: 'paypal.com' },
    ]);
    expect(
      authFailures(['mx.example; dkim=pass header.d=paypal.com; dkim=fail header.d=paypal.com'], null),
    ).toEqual([{ method: 'dkim', domain: 'paypal.com' }]);
  });

  test.each([
    ['a subdomain of the From domain', 'header.d=mail.paypal.com', 'paypal.com'],
    ['the From domain of a subdomain', 'header.d=paypal.com', 'mail.paypal.com'],
    ['the From domain, by header.i alone', 'header.i=@mail.paypal.com', 'paypal.com'],
    ['the From domain, in capitals', 'header.d=PayPal.COM', 'paypal.com'],
  ])('a pass for %s excuses a failed signature beside it (relaxed alignment)', (_, passing, from) => {
    const field = `mail.northwind.example; dkim=fail header.d=esp.example; dkim=pass ${passing}`;
    expect(authFailures([field], from)).toEqual([]);
  });
});
