import { describe, expect, test } from 'vitest';
import {
  type AccountDraft,
  addressProblem,
  byHand,
  type Discovered,
  draftRequest,
  emptyDraft,
  type SettingName,
  serverVerdict,
  signInLabel,
  signInRequest,
  uncheckedSettings,
  withChecked,
  withDiscovery,
  withMethod,
  withPreset,
  withServer,
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

const found = (patch: Partial<Discovered['settings']> = {}, verified = true): Discovered => ({
  settings: {
    imap: { host: 'imap.example.test', port: 993, tls: 'tls' },
    smtp: { host: 'smtp.example.test', port: 465, tls: 'tls' },
    user: 'ana@example.test',
    auth: 'password',
    ...patch,
  },
  sources: (['imap', 'smtp', 'auth'] as const).map((setting) => ({
    setting,
    from: verified ? 'autoconfig (https)' : 'autoconfig (http)',
    detail: 'http://example.test/.well-known/autoconfig/mail/config-v1.1.xml',
    verified,
  })),
  warnings: [],
});
const asked = (): AccountDraft => ({ ...emptyDraft(), address: 'ana@example.test' });

describe('the settings found from an address', () => {
  test('fill in the servers, the login and a password sign-in', () => {
    const draft = withDiscovery(asked(), found());
    expect(draft).toMatchObject({
      step: 'settings',
      user: 'ana@example.test',
      method: 'password',
      imap: { host: 'imap.example.test', port: '993', tls: 'tls' },
      smtpOn: true,
      smtp: { host: 'smtp.example.test', port: '465', tls: 'tls' },
    });
    expect(uncheckedSettings(draft)).toEqual([]);
    expect(draftRequest({ ...draft, password: 'pw' })).toEqual({
      ok: true,
      value: {
        name: 'ana@example.test',
        user: 'ana@example.test',
        password: 'pw',
        imap: { host: 'imap.example.test', port: 993, tls: 'tls' },
        smtp: { host: 'smtp.example.test', port: 465, tls: 'tls' },
      },
    });
  });

  test('a provider’s sign-in becomes its preset, another one its issuer; no SMTP turns sending off', () => {
    const google = withDiscovery(asked(), found({ auth: 'oauth', oauthPreset: 'google' }));
    expect(google.method).toBe('google');
    expect(signInLabel(google)).toBe('Sign in with Google');
    const other = withDiscovery(
      asked(),
      found({ auth: 'oauth', oauthIssuer: 'https://sso.example.test', smtp: null }),
    );
    expect(other).toMatchObject({ method: 'issuer', issuer: 'https://sso.example.test', smtpOn: false });
    expect(signInLabel(other)).toBe('Sign in with sso.example.test');
  });

  test('a known provider’s servers bring its app-password hint', () => {
    const draft = withDiscovery(
      asked(),
      found({ imap: { host: 'imap.mail.me.com', port: 993, tls: 'tls' } }),
    );
    expect(draft.preset).toBe('icloud');
  });

  test('an unverified setting stops Save and Sign in until it is ticked or edited', () => {
    const draft = { ...withDiscovery(asked(), found({}, false)), password: 'pw' };
    expect(uncheckedSettings(draft)).toEqual(['imap', 'smtp', 'auth']);
    const refused = draftRequest(draft);
    expect(!refused.ok && refused.reason).toContain('marked “Not verified”');
    // Ticking one, editing another, choosing the sign-in: each is the person's look at it.
    let next = withChecked(draft, 'imap', true);
    next = withServer(next, 'smtp', { host: 'smtp.example.test', port: '587', tls: 'starttls' });
    expect(uncheckedSettings(next)).toEqual(['auth']);
    expect(uncheckedSettings(withChecked(next, 'imap', false))).toEqual(['imap', 'auth']);
    next = withMethod(next, 'password');
    expect(uncheckedSettings(next)).toEqual([]);
    expect(draftRequest(next).ok).toBe(true);
  });

  test('an unverified SMTP server that is turned off needs no check', () => {
    const draft = { ...withDiscovery(asked(), found({}, false)), checked: ['imap', 'auth'] as SettingName[] };
    expect(uncheckedSettings(draft)).toEqual(['smtp']);
    expect(uncheckedSettings({ ...draft, smtpOn: false })).toEqual([]);
  });

  test('by hand, the address is the login and nothing needs a check', () => {
    const draft = byHand(asked());
    expect(draft).toMatchObject({ step: 'settings', found: null, user: 'ana@example.test' });
    expect(uncheckedSettings(draft)).toEqual([]);
    expect(addressProblem(' ')).toBe('Type your email address.');
    expect(addressProblem('ana@example.test')).toBeNull();
  });
});

describe('signing in with a provider', () => {
  const google = () => withDiscovery(asked(), found({ auth: 'oauth', oauthPreset: 'google' }));

  test('needs the client id; sends the secret only when given', () => {
    const refused = signInRequest(google());
    expect(!refused.ok && refused.reason).toContain('client id');
    expect(signInRequest({ ...google(), clientId: ' id-1 ' })).toEqual({
      ok: true,
      value: {
        name: 'ana@example.test',
        user: 'ana@example.test',
        provider: 'google',
        clientId: 'id-1',
        imap: { host: 'imap.example.test', port: 993, tls: 'tls' },
        smtp: { host: 'smtp.example.test', port: 465, tls: 'tls' },
      },
    });
    const withSecret = signInRequest({ ...google(), clientId: 'id-1', clientSecret: 's' });
    expect(withSecret.ok && withSecret.value.clientSecret).toBe('s');
    // Save is not the way for a sign-in account, nor Sign in for a password one.
    expect(draftRequest({ ...google(), clientId: 'id-1' }).ok).toBe(false);
    expect(signInRequest(withMethod(google(), 'password')).ok).toBe(false);
  });

  test("with the build's own client for the provider, the client id may stay empty", () => {
    const built = signInRequest(google(), ['google']);
    expect(built.ok && built.value).not.toHaveProperty('clientId');
    expect(built.ok && built.value.provider).toBe('google');
    // Another provider's client is not this one's.
    expect(signInRequest(google(), ['microsoft']).ok).toBe(false);
    // A person's own id still goes.
    const own = signInRequest({ ...google(), clientId: 'mine' }, ['google']);
    expect(own.ok && own.value.clientId).toBe('mine');
  });

  test('an issuer must be https, or http on this computer', () => {
    const draft = { ...withMethod(byHand(asked()), 'issuer'), clientId: 'c', imap: filled().imap };
    expect(signInRequest(draft).ok).toBe(false);
    const plain = signInRequest({ ...draft, issuer: 'http://sso.example.test' });
    expect(!plain.ok && plain.reason).toContain('https://');
    const local = signInRequest({ ...draft, issuer: 'http://127.0.0.1:8080/' });
    expect(local.ok && local.value.provider).toBe('http://127.0.0.1:8080');
  });

  test('a preset chosen by hand fills in its servers', () => {
    const draft = withMethod(byHand(asked()), 'microsoft');
    expect(draft.imap).toEqual({ host: 'outlook.office365.com', port: '993', tls: 'tls' });
    expect(draft.smtp).toEqual({ host: 'smtp.office365.com', port: '587', tls: 'starttls' });
    expect(signInLabel(draft)).toBe('Sign in with Microsoft');
  });
});
