import { describe, expect, test } from 'vitest';
import { checkServer, mailPresets, normaliseHost } from './mail-account.ts';

describe('mail server settings', () => {
  test.each([
    ['imap.example.com', 'imap.example.com'],
    ['  IMAP.Example.COM ', 'imap.example.com'],
    ['127.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['bad host', null],
    ['user@imap.example.com', null],
    ['imap.example.com:993', null],
    ['imap.example.com/path', null],
    ['', null],
  ])('normalises %j to %j', (input, expected) => {
    expect(normaliseHost(input)).toBe(expected);
  });

  test.each([
    [{ host: '127.0.0.1', port: 1143, tls: 'none' as const }, true],
    [{ host: 'localhost', port: 1143, tls: 'none' as const }, true],
    [{ host: 'imap.example.com', port: 143, tls: 'none' as const }, false],
    [{ host: '10.0.0.2', port: 143, tls: 'none' as const }, false],
    [{ host: 'imap.example.com', port: 143, tls: 'starttls' as const }, true],
    [{ host: 'imap.example.com', port: 0, tls: 'tls' as const }, false],
    [{ host: 'imap.example.com', port: 70000, tls: 'tls' as const }, false],
  ])('accepts %j: %s', (settings, ok) => {
    expect(checkServer('IMAP', settings).ok).toBe(ok);
  });

  test('says why plaintext is refused off this computer', () => {
    const checked = checkServer('SMTP', { host: 'smtp.example.com', port: 25, tls: 'none' });
    expect(checked).toMatchObject({ ok: false, reason: expect.stringMatching(/SMTP without TLS/) });
  });

  test('every preset passes its own check', () => {
    for (const p of Object.values(mailPresets)) {
      expect(checkServer('IMAP', p.imap).ok).toBe(true);
      expect(checkServer('SMTP', p.smtp).ok).toBe(true);
    }
  });
});
