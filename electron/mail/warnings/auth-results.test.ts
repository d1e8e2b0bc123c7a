import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authFailures, parseAuthResults } from './auth-results.ts';
import { readTrustHeaders } from './trust-headers.ts';

const fixture = (name: string) =>
  readTrustHeaders(readFileSync(join(import.meta.dirname, '../../../fixtures/auth-results', `${name}.txt`)));

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
    expect(authFailures(fixture(name).authenticationResults)).toEqual(expected);
  });

  test('reads only the topmost server: a relay further down that passed does not count', () => {
    const fields = fixture('microsoft-365-fail').authenticationResults;
    expect(fields).toHaveLength(2);
    expect(parseAuthResults(fields[1] ?? '').authservId).toBe('relay.example.net');
    expect(authFailures(fields.slice(1))).toEqual([]);
  });

  test('a message without the header has no failures', () => {
    expect(authFailures([])).toEqual([]);
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
