// `skimmer account add --oauth` end to end (issue 28), every part real and on loopback: the command (its own
// process) prints the address to sign in at, a script plays the browser at oidc-provider (test/support/oidc.ts)
// and lands on Skimmer's loopback listener; the mail then comes from Dovecot through its oauth2 passdb, which
// asks the provider about each token, and a draft goes out through the SMTP sink by XOAUTH2. A revoked sign-in
// shows "Sign in again" and `account signin` carries on with nothing lost or duplicated. No token is ever in the
// data folder's files (database, WAL, log), the commands' output or a process's arguments. The provider is served
// over HTTPS with a certificate of the tests' own CA, which the commands trust as a person's would a company CA:
// through Node's NODE_EXTRA_CA_CERTS.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { projectRoot } from '../electron/app.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { type OidcServer, startOidc } from './support/oidc.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';
import { startTestCa } from './support/test-ca.ts';

const user = 'ana@example.com';
let idp: OidcServer;
let dovecot: Dovecot;
let sink: SmtpSink;
const data = tempDir();
const outputs: string[] = [];
const argvSeen: string[] = [];
const ca = startTestCa();
const caFile = join(tempDir(), 'test-ca.pem');
writeFileSync(caFile, ca.cert);
// No desktop to open a browser on, unless a test gives one.
const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...baseEnv } = process.env;
const trustCa = { NODE_EXTRA_CA_CERTS: caFile };
const env: NodeJS.ProcessEnv = { ...baseEnv, ...trustCa };

const skimmer = async (args: string[], input?: string) => {
  const r = await runSkimmer(
    ['--data', data, ...args],
    input === undefined ? { env: trustCa } : { input, env: trustCa },
  );
  outputs.push(r.stdout, r.stderr);
  return r;
};

// Runs a sign-in command as a person would: reads the first line for the address, signs in there (the script
// of the browser), and waits for the command to end. Meanwhile the arguments of every process are kept.
async function signInWith(args: string[], opts: { deny?: boolean } = {}) {
  const child = spawn(process.execPath, [join(projectRoot, 'bin', 'skimmer.mjs'), '--data', data, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stdout = '';
  let stderr = '';
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  const line = await Promise.race([firstLine, exited.then(() => '')]);
  if (line === '') throw new Error(`the command ended before it printed an address: ${stderr}`);
  argvSeen.push(...allArgv());
  const { authorize } = JSON.parse(line) as { authorize: string };
  const page = await idp.authorize(authorize, { user, ...opts });
  const code = await exited;
  outputs.push(stdout, stderr);
  return { code, stdout, stderr, page, authorize };
}

// What `ps` would show: every process's command line.
function allArgv(): string[] {
  const seen: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      seen.push(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
    } catch {
      // gone meanwhile
    }
  }
  return seen;
}

const addArgs = () => [
  'account',
  'add',
  'work',
  '--oauth',
  idp.issuer,
  '--client-id',
  idp.clientId,
  '--user',
  user,
  '--imap-host',
  '127.0.0.1',
  '--imap-port',
  String(dovecot.port),
  '--tls',
  'none',
  '--smtp-host',
  '127.0.0.1',
  '--smtp-port',
  String(sink.port),
  '--smtp-tls',
  'none',
  '--json',
];

beforeAll(async () => {
  idp = await startOidc({ ca });
  // The password is never given to Skimmer: it signs in with the provider only.
  dovecot = await startDovecot({
    users: [{ user, pass: 'not-given-to-skimmer' }],
    oauth2: { introspectionUrl: idp.introspection.withCredentials },
  });
  sink = await startSmtpSink({ oauth2: { introspect: (t) => idp.introspect(t) } });
  await dovecot.append(
    'INBOX',
    [
      eml({ id: '<o1@example.com>', subject: 'Quarterly kiwi report', body: 'Kiwi sales are up.' }),
      eml({ id: '<o2@example.com>', subject: 'Lunch', body: 'Noon?' }),
    ],
    [],
    user,
  );
}, 60_000);

describe('skimmer account add --oauth', () => {
  test('--tls none to a host that is not this computer is refused before any sign-in', async () => {
    const args = addArgs();
    args[args.indexOf('--imap-host') + 1] = 'imap.example.com';
    const r = await skimmer(args);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('authorize');
    expect(r.stdout + r.stderr).toMatch(/without TLS is allowed only on this computer/);
  });

  test('Ctrl+C ends the wait for the sign-in with nothing stored', async () => {
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'skimmer.mjs'), '--data', data, ...addArgs()],
      { stdio: ['ignore', 'pipe', 'pipe'], env },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve();
      }),
    );
    const { authorize } = JSON.parse(out.split('\n')[0] as string) as { authorize: string };
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    // The listener is gone with it: the provider's redirect reaches no one.
    await expect(idp.authorize(authorize, { user })).rejects.toThrow();
    expect((await skimmer(['account', 'list', '--json'])).stdout.trim()).toBe('');
  });

  test('a sign-in refused at the provider is a sentence and stores nothing', async () => {
    const r = await signInWith(addArgs(), { deny: true });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain(
      'The sign-in was refused at the provider (access denied); nothing was saved.',
    );
    expect((await skimmer(['account', 'list', '--json'])).stdout.trim()).toBe('');
  });

  test('signs in, syncs the mail from Dovecot, finds it, and sends by XOAUTH2', async () => {
    const started = Date.now();
    const r = await signInWith(addArgs());
    expect(r.code, r.stderr).toBe(0);
    expect(r.page.body).toContain('You can close this tab');
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toHaveProperty('authorize');
    expect(lines[1]).toMatchObject({
      name: 'work',
      user,
      auth: 'oauth2',
      hasPassword: true,
      needsSignIn: false,
    });

    const sync = await skimmer(['account', 'sync', 'work', '--once', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(jsonLines(sync.stdout).at(-1)).toMatchObject({ added: 2 });
    // Measured, not asserted: from the command's start to the first messages stored.
    console.info(`account add --oauth to the first messages: ${Date.now() - started} ms`);
    const found = await skimmer(['search', 'kiwi', '--json']);
    expect(found.stdout).toContain('Quarterly kiwi report');

    const draft = await skimmer(
      ['draft', 'new', '--to', 'bo@example.net', '--subject', 'By token', '--body-file', '-', '--json'],
      'Sent with a token.\n',
    );
    expect(draft.code, draft.stderr).toBe(0);
    const id = String(jsonLines(draft.stdout)[0]?.id);
    const sent = await skimmer(['draft', 'send', id]);
    expect(sent.code, sent.stderr).toBe(0);
    const [message] = await sink.waitFor(1);
    expect(message?.user).toBe(user);
    expect(message?.raw.toString()).toContain('Sent with a token.');
  }, 60_000);

  test('a revoked sign-in shows "Sign in again"; after account signin the sync carries on, nothing lost or twice', async () => {
    idp.revokeAll();
    const refused = await skimmer(['account', 'sync', 'work', '--once']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the saved sign-in of "work".*sign in again/);
    expect(refused.stderr).toContain('Sign in again: skimmer account signin work');
    const listed = await skimmer(['account', 'list', '--json']);
    expect(jsonLines(listed.stdout)[0]).toMatchObject({ name: 'work', needsSignIn: true });
    expect((await skimmer(['account', 'list'])).stdout).toContain(
      'Sign in again: skimmer account signin work',
    );
    // While it waits, the sync is paused with a sentence rather than a refused login each round.
    const paused = await skimmer(['account', 'sync', 'work', '--once']);
    expect(paused.stderr).toMatch(/sign in again/);

    await dovecot.append(
      'INBOX',
      [eml({ id: '<o3@example.com>', subject: 'Arrived meanwhile', body: 'Plums.' })],
      [],
      user,
    );
    const again = await signInWith(['account', 'signin', 'work', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout)[1]).toMatchObject({ name: 'work', needsSignIn: false, lastError: null });
    const sync = await skimmer(['account', 'sync', 'work', '--once', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    // The message that arrived meanwhile, and the copy of the sent one the outbox kept in Sent: four on the
    // server, each stored once.
    expect(jsonLines(sync.stdout).at(-1)).toMatchObject({ messages: 4, added: 2 });
    const plums = await skimmer(['search', 'plums', '--json']);
    expect(jsonLines(plums.stdout)).toHaveLength(1);
    const all = await skimmer(['search', 'kiwi OR lunch OR plums', '--json']);
    expect(jsonLines(all.stdout)).toHaveLength(3);
  }, 60_000);

  test('at a desktop, without --json, the command opens the sign-in page in the browser itself', async () => {
    // The desktop's opener (xdg-open) is a script that notes the address it was given; the test then plays the
    // browser at that address.
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    const seen = join(bin, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'skimmer.mjs'), '--data', data, 'account', 'signin', 'work'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...env, DISPLAY: ':99', PATH: `${bin}:${process.env.PATH ?? ''}` },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await expect.poll(() => existsSync(seen) && readFileSync(seen, 'utf8').length > 0).toBe(true);
    const url = readFileSync(seen, 'utf8');
    expect(new URL(url).origin).toBe(idp.issuer);
    const page = await idp.authorize(url, { user });
    expect(page.body).toContain('You can close this tab');
    expect(await exited).toBe(0);
    outputs.push(stdout);
    expect(stdout).toContain('Opened the sign-in page in your browser');
    expect(stdout).toContain(url);
    expect(stdout).toMatch(/Signed in: work \(ana@example\.com/);
  });

  test('no token is in the data folder, the output or any process arguments', () => {
    const tokens = [...idp.issued.refresh, ...idp.issued.access];
    expect(idp.issued.refresh.length).toBeGreaterThanOrEqual(3);
    const files = readdirSync(data, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    expect(files.some((f) => f.endsWith('skimmer.db-wal') || f.endsWith('skimmer.db'))).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const t of tokens) expect(text.includes(t), `${f} holds a token`).toBe(false);
    }
    for (const o of [...outputs, ...argvSeen]) for (const t of tokens) expect(o.includes(t)).toBe(false);
  });
});
