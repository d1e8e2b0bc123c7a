// `skimmer identity …` (your addresses), run as a real process the way users run it, against one data folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { dbFileName } from '../electron/data-folder.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { tempDir } from './support/temp.ts';

const data = tempDir();
const files = tempDir();
const skimmer = (args: string[], input?: string) =>
  runSkimmer(['--data', data, ...args], input === undefined ? {} : { input });

describe('skimmer identity', () => {
  test('adds an address lower-cased, with a name and a signature from a file, and lists it', async () => {
    const signature = join(files, 'signature.txt');
    writeFileSync(signature, '\uFEFFPriya Raman\r\nExample Ltd\r\n');
    const add = await skimmer([
      'identity',
      'add',
      'Priya@Example.COM',
      '--name',
      'Priya Raman',
      '--signature-file',
      signature,
      '--json',
    ]);
    expect(add.code).toBe(0);
    expect(jsonLines(add.stdout)).toEqual([
      {
        address: 'priya@example.com',
        name: 'Priya Raman',
        signature: 'Priya Raman\nExample Ltd',
        account: null,
        added: true,
      },
    ]);
    const list = await skimmer(['identity', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(jsonLines(list.stdout)).toEqual([
      {
        address: 'priya@example.com',
        name: 'Priya Raman',
        signature: 'Priya Raman\nExample Ltd',
        account: null,
      },
    ]);
    const text = await skimmer(['identity', 'list']);
    expect(text.stdout.trim()).toBe('priya@example.com  Priya Raman  with a signature');
  });

  test('changes the name of an address already there, keeping its signature', async () => {
    const r = await skimmer(['identity', 'add', 'priya@example.com', '--name', 'P. Raman']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Changed priya@example.com (P. Raman).');
    const [listed] = jsonLines((await skimmer(['identity', 'list', '--json'])).stdout);
    expect(listed).toMatchObject({ name: 'P. Raman', signature: 'Priya Raman\nExample Ltd' });
  });

  test("lists an account's own address and keeps it when asked to remove it", async () => {
    const account = await skimmer(
      [
        'account',
        'add',
        'work',
        '--imap-host',
        '127.0.0.1',
        '--imap-port',
        '1143',
        '--tls',
        'none',
        '--user',
        'Me@Work.Example',
        '--password-stdin',
      ],
      'pw\n',
    );
    expect(account.code).toBe(0);
    const list = await skimmer(['identity', 'list', '--json']);
    expect(jsonLines(list.stdout).map((i) => [i.address, i.account])).toEqual([
      ['me@work.example', 'work'],
      ['priya@example.com', null],
    ]);
    const remove = await skimmer(['identity', 'remove', 'me@work.example']);
    expect(remove.code).toBe(2);
    expect(remove.stderr.trim()).toBe(
      'me@work.example is the address of the account "work": it stays one of yours while the account does.',
    );
  });

  test('removes an address, and says so when it is not one of yours', async () => {
    const removed = await skimmer(['identity', 'remove', 'PRIYA@example.com']);
    expect(removed.code).toBe(0);
    expect(removed.stdout.trim()).toBe('Removed priya@example.com.');
    const again = await skimmer(['identity', 'remove', 'priya@example.com']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      'priya@example.com is not one of your addresses: see `skimmer identity list`.',
    );
  });

  test.each([
    [['identity', 'add', 'Priya <priya@example.com>'], 'Give one mail address, like name@example.com.'],
    [['identity', 'add', 'a@example.com', 'b@example.com'], 'Use `skimmer identity add ADDRESS'],
    [
      ['identity', 'add', 'a@example.com', '--signature-file', join(files, 'missing.txt')],
      'The signature file cannot be read',
    ],
    [['identity', 'list', '--name', 'x'], 'skimmer identity list does not take --name.'],
    [['identity', 'remove'], 'Use `skimmer identity add ADDRESS'],
  ])('skimmer %j is refused with one sentence', async (args, sentence) => {
    const r = await skimmer(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(sentence);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  // SECURITY: a signature file is a path the user names: never a file in Skimmer's data folder (DESIGN §13).
  // Both exist by the time the file is read: the command has opened its data folder.
  test.each([dbFileName, 'vault.key'])('refuses a signature file in the data folder (%s)', async (name) => {
    const r = await skimmer(['identity', 'add', 'x@example.com', '--signature-file', join(data, name)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("The signature file cannot be read: This is in Skimmer's own data folder.");
    const list = await skimmer(['identity', 'list', '--json']);
    expect(list.stdout).not.toContain('x@example.com');
  });

  test('refuses a signature longer than 10,000 characters', async () => {
    const long = join(files, 'long.txt');
    writeFileSync(long, 's'.repeat(10_001));
    const r = await skimmer(['identity', 'add', 'x@example.com', '--signature-file', long]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^The request is not valid \(signature\): /);
  });
});
