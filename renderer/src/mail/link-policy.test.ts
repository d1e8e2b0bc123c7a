import { describe, expect, test } from 'vitest';
import { classifyLink } from './link-policy.ts';

describe('classifyLink', () => {
  test.each([
    ['https://example.com/path?q=1', 'https://example.com/path?q=1'],
    ['HTTP://Example.COM', 'http://example.com/'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['  https://example.com/  ', 'https://example.com/'],
  ])('offers %j as %j', (href, url) => {
    const verdict = classifyLink(href, '');
    expect(verdict.openable).toBe(true);
    expect(verdict.url).toBe(url);
  });

  test.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'relative/page.html',
    '#section',
    '',
  ])('refuses %j', (href) => {
    expect(classifyLink(href, '').openable).toBe(false);
  });

  test('shows the address the browser would open, not the text the email shows', () => {
    const verdict = classifyLink('https://evil.example.net/login', 'https://bank.example.com/login');
    expect(verdict).toMatchObject({ openable: true, url: 'https://evil.example.net/login' });
    expect(verdict.openable && verdict.warnings).toEqual([
      'The link text shows bank.example.com, but the link opens evil.example.net.',
    ]);
  });

  test('does not warn when the text names the same site', () => {
    const verdict = classifyLink('https://www.example.com/a', 'example.com');
    expect(verdict.openable && verdict.warnings).toEqual([]);
  });

  test('warns about a name before @ that hides the real host', () => {
    const verdict = classifyLink('https://bank.example.com@evil.example.net/', 'Sign in');
    expect(verdict).toMatchObject({ openable: true, host: 'evil.example.net' });
    expect(verdict.openable && verdict.warnings[0]).toContain('evil.example.net');
  });

  test('shows international site names in punycode and warns about them', () => {
    const verdict = classifyLink('https://pаypal.example/', 'PayPal');
    expect(verdict).toMatchObject({ openable: true, url: 'https://xn--pypal-4ve.example/' });
    expect(verdict.openable && verdict.warnings).toHaveLength(1);
  });
});
