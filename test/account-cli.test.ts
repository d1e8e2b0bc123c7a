// `skimmer account …` end to end (issue 5): real processes, a real Dovecot on loopback. The password goes in
// on standard input and is never printed or stored in plain text; plaintext IMAP is refused off loopback;
// `account sync --once --json` ends with one summary line; synced mail is found by `skimmer search`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';

const password = 'pw-canary-7f3a91';
let server: Dovecot;
const data = tempDir();
const skimmer = (args: string[], input?: string) =>
  runSkimmer(['--data', data, ...args], input === undefined ? {} : { input });

beforeAll(async () => {
  server = await startDovecot({ users: [{ user: 'cli@example.com', pass: password }] });
  await server.append(
    'INBOX',
    [
      eml({ id: '<c1@example.com>', subject: 'Quarterly kiwi report', body: 'Kiwi sales are up.' }),
      eml({ id: '<c2@example.com>', subject: 'Lunch', body: 'Noon?' }),
    ],
    [],
    'cli@example.com',
  );
}, 30_000);
afterAll(() => server?.stop());

const addArgs = (name: string, host: string, tls: string) => [
  'account',
  'add',
  name,
  '--imap-host',
  host,
  '--imap-port',
  String(server.port),
  '--tls',
  tls,
  '--user',
  'cli@example.com',
  '--password-stdin',
];

describe('skimmer account', () => {
  test('refuses plaintext IMAP to a host that is not this computer, before any connection', async () => {
    const r = await skimmer(addArgs('remote', 'imap.example.com', 'none'), password);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/without TLS/i);
    expect((await skimmer(['account', 'list', '--json'])).stdout.trim()).toBe('');
  });

  test('adds an account with the password from standard input, never showing it', async () => {
    const r = await skimmer([...addArgs('work', '127.0.0.1', 'none'), '--json'], `${password}\n`);
    expect(r.code).toBe(0);
    const [view] = jsonLines(r.stdout);
    expect(view).toMatchObject({ name: 'work', user: 'cli@example.com', hasPassword: true });
    const list = await skimmer(['account', 'list', '--json']);
    expect(jsonLines(list.stdout)).toMatchObject([
      { name: 'work', imap: { host: '127.0.0.1', tls: 'none' } },
    ]);
    expect(r.stdout + r.stderr + list.stdout + list.stderr).not.toContain(password);
  });

  test('tests the login', async () => {
    const r = await skimmer(['account', 'test', 'work', '--json']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([{ ok: true, message: expect.stringContaining('Logged in') }]);
  });

  test('syncs once with its progress and one summary line, and the mail is searchable', async () => {
    const r = await skimmer(['account', 'sync', 'work', '--once', '--json']);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    // Every line before the summary is a folder's progress, as the app's folder list shows it.
    const progress = lines.slice(0, -1);
    expect(progress.every((l) => l.type === 'sync_progress')).toBe(true);
    expect(progress.filter((l) => Number(l.total) > 0).at(-1)).toMatchObject({ done: 2, total: 2 });
    expect(lines.at(-1)).toMatchObject({ folders: expect.any(Number), messages: 2, added: 2 });
    const found = await skimmer(['search', 'kiwi', '--json']);
    expect(jsonLines(found.stdout).map((h) => h.subject)).toEqual(['Quarterly kiwi report']);
  });

  test('a refused password ends with a sentence and a non-zero exit, and is remembered on the account', async () => {
    const other = tempDir();
    const add = await runSkimmer(['--data', other, ...addArgs('bad', '127.0.0.1', 'none')], {
      input: 'nope',
    });
    expect(add.code).toBe(0);
    const r = await runSkimmer(['--data', other, 'account', 'sync', 'bad', '--once', '--json']);
    expect(r.code).toBe(1);
    expect(jsonLines(r.stdout)).toEqual([
      {
        type: 'error',
        code: 'unauthorized',
        message: expect.stringMatching(/refused the user name or password/),
      },
    ]);
    const list = await runSkimmer(['--data', other, 'account', 'list', '--json']);
    expect(jsonLines(list.stdout)[0]).toMatchObject({ lastError: expect.stringMatching(/refused/) });
  });

  test('the password is nowhere in the data folder in plain text', () => {
    for (const f of readdirSync(data)) {
      expect(readFileSync(join(data, f)).includes(password), f).toBe(false);
    }
  });
});
