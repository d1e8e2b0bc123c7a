import { describe, expect, test } from 'vitest';
import { checkExternalUrl } from './external-url.ts';

describe('checkExternalUrl (checklist 15)', () => {
  test.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com/'],
    ['mailto:bob@example.com', 'mailto:bob@example.com'],
    // Look-alike hosts are shown and opened in their real (punycode) form.
    ['https://pаypal.com/', 'https://xn--pypal-4ve.com/'],
  ])('opens %s as %s', (input, url) => {
    expect(checkExternalUrl(input)).toEqual({ ok: true, url });
  });

  test.each([
    'file:///etc/passwd',
    'smb://host/share',
    'ms-msdt:/id PCWDiagnostic',
    'javascript:alert(1)',
    'data:text/html,hi',
    'vbscript:x',
    'https://bank.example@evil.example.net/',
    'not a url',
  ])('refuses %s', (input) => {
    expect(checkExternalUrl(input).ok).toBe(false);
  });
});
