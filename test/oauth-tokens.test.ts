// The access tokens of an account signed in with OAuth (issue 28), in the long-running app: the background
// sync's worker thread gets its token from the main thread's broker (the refresh token never leaves it), a token
// about to expire is refreshed before a login without any error showing, and a token a server refuses is
// refreshed and tried once more. Real oidc-provider, real Dovecot (oauth2 passdb), all on loopback.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { type Channel, channels, envelope, type Request, type Response } from '../shared/contract/index.ts';
import { callRaw } from './support/bridge.ts';
import { startDovecot } from './support/dovecot.ts';
import { type OidcServer, startOidc } from './support/oidc.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';
import { startTestCa } from './support/test-ca.ts';

const user = 'ana@example.com';
let app: App | undefined;
let current: { idp: OidcServer; dataDir: string } | undefined;
// Every answer the bridge gave, errors too, as the page would get it.
const answers: string[] = [];

async function call<C extends Channel>(a: App, channel: C, request: Request<C>): Promise<Response<C>> {
  const raw = await callRaw(a, channel, request);
  answers.push(JSON.stringify(raw));
  const env = envelope(channels[channel].response).parse(raw);
  if (!env.ok) throw new Error(`${channel} failed: ${env.error.code} ${env.error.message}`);
  return env.value as Response<C>;
}

// SECURITY: no token the provider gave is in a bridge answer, the database, its WAL or the log.
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (!current) return;
  const tokens = [...current.idp.issued.refresh, ...current.idp.issued.access];
  expect(tokens.length).toBeGreaterThan(0);
  const files = readdirSync(current.dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  const texts = [...answers, ...files.map((f) => readFileSync(f, 'latin1'))];
  for (const t of tokens) expect(texts.some((x) => x.includes(t))).toBe(false);
  answers.length = 0;
  current = undefined;
});

async function setUp(
  accessTokenTtl: number,
  background: boolean,
  opts: {
    https?: boolean;
    smtp?: (idp: OidcServer) => Promise<SmtpSink>;
    mechanisms?: ('xoauth2' | 'oauthbearer')[];
  } = {},
) {
  const ca = opts.https ? startTestCa() : null;
  const idp = await startOidc({ accessTokenTtl, ...(ca ? { ca } : {}) });
  const dovecot = await startDovecot({
    users: [{ user, pass: 'not-given-to-skimmer' }],
    oauth2: {
      introspectionUrl: idp.introspection.withCredentials,
      ...(opts.mechanisms ? { mechanisms: opts.mechanisms } : {}),
    },
  });
  await dovecot.append('INBOX', [eml({ id: '<t1@example.com>', subject: 'First' })], [], user);
  const sink = opts.smtp ? await opts.smtp(idp) : null;
  const dataDir = tempDir();
  current = { idp, dataDir };
  app = createApp({ dataDir, mode: 'browser', background, ...(ca ? { extraCa: ca.cert } : {}) });
  const started = await call(app, 'account:oauthStart', {
    name: 'work',
    user,
    provider: idp.issuer,
    clientId: idp.clientId,
    imap: { host: '127.0.0.1', port: dovecot.port, tls: 'none' },
    ...(sink ? { smtp: { host: '127.0.0.1', port: sink.port, tls: 'none' as const } } : {}),
  });
  await idp.authorize(started.authorizeUrl, { user });
  const view = await call(app, 'account:oauthWait', { signInId: started.signInId });
  return { idp, dovecot, app, view, sink };
}

const stored = (a: App) => a.db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

describe('access tokens', () => {
  test('the desktop opens the sign-in address in the system browser itself; elsewhere the caller does', async () => {
    const idp = await startOidc();
    const dataDir = tempDir();
    current = { idp, dataDir };
    const opened: string[] = [];
    app = createApp({
      dataDir,
      mode: 'browser',
      openExternal: async (url) => {
        opened.push(url);
      },
    });
    const started = await call(app, 'account:oauthStart', {
      name: 'work',
      user,
      provider: idp.issuer,
      clientId: idp.clientId,
      imap: { host: '127.0.0.1', port: 993, tls: 'none' },
    });
    expect(started.opened).toBe(true);
    expect(opened).toEqual([started.authorizeUrl]);
    await idp.authorize(opened[0] as string, { user });
    expect(await call(app, 'account:oauthWait', { signInId: started.signInId })).toMatchObject({
      auth: 'oauth2',
    });
    // A second wait for the same sign-in finds none.
    const again = await callRaw(app, 'account:oauthWait', { signInId: started.signInId });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('the worker logs in with a token from the main thread, refreshed before it expires, with no error', async () => {
    // A 60-second token is within the broker's 2-minute margin from the start: every login refreshes first.
    const { idp, dovecot, app: a, view } = await setUp(60, true);
    await expect.poll(() => stored(a), { timeout: 20_000 }).toBe(1);
    expect(idp.tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
    await dovecot.append('INBOX', [eml({ id: '<t2@example.com>', subject: 'Second' })], [], user);
    await expect.poll(() => stored(a), { timeout: 20_000 }).toBe(2);
    const [listed] = await call(a, 'account:list', {});
    expect(listed).toMatchObject({ id: view.id, lastError: null, needsSignIn: false });
  }, 60_000);

  test('a provider over HTTPS behind a CA the app was given: signed in, and the worker logs in with tokens refreshed through it', async () => {
    const { idp, app: a, view } = await setUp(60, true, { https: true });
    expect(idp.issuer).toMatch(/^https:/);
    await expect.poll(() => stored(a), { timeout: 20_000 }).toBe(1);
    expect(idp.tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
    const [listed] = await call(a, 'account:list', {});
    expect(listed).toMatchObject({ id: view.id, lastError: null, needsSignIn: false });
  }, 60_000);

  test('a server offering XOAUTH2 alone (as Microsoft does) is logged in to with it; OAUTHBEARER where offered', async () => {
    const only = await setUp(3600, false, { mechanisms: ['xoauth2'] });
    expect(await call(only.app, 'account:test', { id: only.view.id })).toMatchObject({ ok: true });
    const methods = (d: { dir: string }) =>
      [
        ...readFileSync(join(d.dir, 'dovecot.log'), 'utf8').matchAll(/Login: user=<[^>]*>, method=(\w+)/g),
      ].map((m) => m[1]);
    await expect.poll(() => methods(only.dovecot)).toContain('XOAUTH2');
    expect(methods(only.dovecot)).not.toContain('OAUTHBEARER');
    await app?.close();
    const both = await setUp(3600, false);
    expect(await call(both.app, 'account:test', { id: both.view.id })).toMatchObject({ ok: true });
    await expect.poll(() => methods(both.dovecot)).toContain('OAUTHBEARER');
  }, 60_000);

  test('a token the server refuses is refreshed and the login tried once more', async () => {
    const { idp, app: a, view } = await setUp(3600, false);
    // The code exchange's token is kept: the first login needs no refresh.
    expect(await call(a, 'account:test', { id: view.id })).toMatchObject({ ok: true });
    expect(idp.tokenRequests.refresh_token).toBe(0);
    idp.revokeAccessTokens();
    expect(await call(a, 'account:test', { id: view.id })).toMatchObject({ ok: true });
    expect(idp.tokenRequests.refresh_token).toBe(1);
  }, 60_000);

  test('mail sent while the sign-in is refused waits in the outbox, and goes out once signed in again', async () => {
    const {
      idp,
      app: a,
      view,
      sink,
    } = await setUp(60, true, {
      smtp: (p) => startSmtpSink({ oauth2: { introspect: (t) => p.introspect(t) } }),
    });
    if (!sink) throw new Error('no sink');
    await expect.poll(() => stored(a), { timeout: 20_000 }).toBe(1);
    idp.revokeAll();
    const draft = await call(a, 'draft:new', {
      kind: 'blank',
      to: ['bo@example.net'],
      cc: [],
      subject: 'While signed out',
      body: 'Kept until the sign-in.',
    });
    await call(a, 'draft:send', { id: draft.id });
    // The send's login (or the sync's) meets the refusal: the account needs signing in, the message is queued.
    await expect
      .poll(async () => (await call(a, 'account:list', {}))[0]?.needsSignIn, { timeout: 20_000 })
      .toBe(true);
    const waiting = async () =>
      (await call(a, 'outbox:list', {})).find((i) => i.subject === 'While signed out');
    // Past its undo window it stays queued, with the reason, instead of failing.
    await expect
      .poll(async () => (await waiting())?.error ?? '', { timeout: 30_000 })
      .toMatch(/sign in again/i);
    expect((await waiting())?.state).toBe('queued');
    expect(sink.received).toHaveLength(0);

    const again = await call(a, 'account:oauthSignIn', { id: view.id });
    await idp.authorize(again.authorizeUrl, { user });
    await call(a, 'account:oauthWait', { signInId: again.signInId });
    const [got] = await sink.waitFor(1);
    expect(got?.raw.toString()).toContain('Kept until the sign-in.');
    await expect.poll(async () => (await waiting())?.state, { timeout: 20_000 }).toBe('sent');
    // Once, not twice.
    expect(sink.received).toHaveLength(1);
  }, 90_000);

  test('a revoked sign-in marks the account and pauses it until it signs in again', async () => {
    const { idp, app: a, view } = await setUp(3600, false);
    idp.revokeAll();
    const t = await call(a, 'account:test', { id: view.id });
    expect(t.ok).toBe(false);
    expect(t.message).toMatch(/refused the saved sign-in of "work".*sign in again/);
    // The app's own sentence: its Sign in again button is beside it, no command line.
    expect(t.message).not.toContain('skimmer');
    const [listed] = await call(a, 'account:list', {});
    expect(listed).toMatchObject({ needsSignIn: true });
    const again = await call(a, 'account:oauthSignIn', { id: view.id });
    await idp.authorize(again.authorizeUrl, { user });
    expect(await call(a, 'account:oauthWait', { signInId: again.signInId })).toMatchObject({
      needsSignIn: false,
    });
    expect(await call(a, 'account:test', { id: view.id })).toMatchObject({ ok: true });
  }, 60_000);
});
