import { describe, expect, test } from 'vitest';
import {
  type AccountDraft,
  draftRequest,
  emptyDraft,
  serverVerdict,
  withPreset,
  withTls,
} from './account-form.ts';

const filled = (patch: Partial<AccountDraft> = {}): AccountDraft => ({
  ...emptyDraft(),
  user: 'test@example.com',
  password: 'secret',
  imap: { host: '127.0.0.1', port: '1143', tls: 'none' },
  ...patch,
});

describe('the account form', () => {
  test('a preset fills both servers and keeps the login', () => {
    const draft = withPreset({ ...emptyDraft(), user: 'me@gmail.com', password: 'app' }, 'gmail');
    expect(draft.imap).toEqual({ host: 'imap.gmail.com', port: '993', tls: 'tls' });
    expect(draft.smtp).toEqual({ host: 'smtp.gmail.com', port: '465', tls: 'tls' });
    expect(draft.smtpOn).toBe(true);
    expect(draft.user).toBe('me@gmail.com');
    expect(draft.password).toBe('app');
  });

  test('changing TLS moves a usual port along and keeps a typed one', () => {
    expect(withTls('IMAP', { host: 'h', port: '993', tls: 'tls' }, 'starttls').port).toBe('143');
    expect(withTls('SMTP', { host: 'h', port: '465', tls: 'tls' }, 'starttls').port).toBe('587');
    expect(withTls('IMAP', { host: 'h', port: '', tls: 'tls' }, 'tls').port).toBe('993');
    expect(withTls('IMAP', { host: 'h', port: '1143', tls: 'tls' }, 'none').port).toBe('1143');
  });

  test('says nothing about a server whose host is still empty', () => {
    expect(serverVerdict('IMAP', { host: ' ', port: '993', tls: 'tls' })).toBeNull();
  });

  test.each([
    [{ host: 'imap.example.com', port: '143', tls: 'none' }, 'allowed only on this computer'],
    [{ host: 'imap.example.com', port: '99999', tls: 'tls' }, 'port must be a number'],
    [{ host: 'imap.example.com', port: '99x', tls: 'tls' }, 'port must be a number'],
    [{ host: 'imap example.com', port: '993', tls: 'tls' }, 'not a host name'],
  ] as const)('refuses %o before saving: %s', (server, reason) => {
    const verdict = serverVerdict('IMAP', server);
    expect(verdict?.ok).toBe(false);
    expect(verdict?.ok === false && verdict.reason).toContain(reason);
  });

  test('allows plaintext on this computer only', () => {
    expect(serverVerdict('IMAP', { host: 'localhost', port: '143', tls: 'none' })?.ok).toBe(true);
    expect(serverVerdict('IMAP', { host: '127.0.0.1', port: '143', tls: 'none' })?.ok).toBe(true);
  });

  test('builds the request, named after the login when no name is given', () => {
    expect(draftRequest(filled())).toEqual({
      ok: true,
      value: {
        name: 'test@example.com',
        user: 'test@example.com',
        password: 'secret',
        imap: { host: '127.0.0.1', port: 1143, tls: 'none' },
      },
    });
  });

  test('sends SMTP only when sending is on', () => {
    const smtp = { host: 'smtp.example.com', port: '587', tls: 'starttls' } as const;
    const off = draftRequest(filled({ smtp }));
    expect(off.ok ? off.value.smtp : 'refused').toBeUndefined();
    const on = draftRequest(filled({ name: 'work', smtpOn: true, smtp }));
    expect(on.ok && on.value.smtp).toEqual({ host: 'smtp.example.com', port: 587, tls: 'starttls' });
    expect(on.ok && on.value.name).toBe('work');
  });

  test.each([
    [{ user: ' ' }, 'user name'],
    [{ password: '' }, 'password'],
    [{ imap: { host: '', port: '993', tls: 'tls' } }, 'IMAP server'],
    [{ smtpOn: true, smtp: { host: '', port: '465', tls: 'tls' } }, 'SMTP server'],
    [{ smtpOn: true, smtp: { host: 'smtp.example.com', port: '25', tls: 'none' } }, 'SMTP without TLS'],
  ] as const)('stops at %o: %s', (patch, reason) => {
    const result = draftRequest(filled(patch as Partial<AccountDraft>));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });
});
