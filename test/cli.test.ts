// The `skimmer` command, run as a real process the way users run it.
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultDataDir } from '../electron/data-dir.ts';
import { dbFileName } from '../electron/data-folder.ts';
import { SearchHit } from '../shared/contract/index.ts';
import { runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

const skimmer = (args: string[], env: Record<string, string> = {}, input?: string) =>
  runSkimmer(args, { env, ...(input === undefined ? {} : { input }) });

const mail = tempDir();
writeFileSync(
  join(mail, '1.eml'),
  eml({ id: '<1@x>', subject: 'Quarterly report', body: 'Numbers attached' }),
);
writeFileSync(join(mail, '2.eml'), eml({ id: '<2@x>', subject: 'Re: Quarterly report', inReplyTo: '<1@x>' }));
writeFileSync(join(mail, '3.eml'), 'not mail');

describe('skimmer CLI', () => {
  test('import --json prints one summary object and a second import adds nothing', async () => {
    const data = tempDir();
    const first = await skimmer(['--data', data, 'import', mail, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      imported: 2,
      duplicates: 0,
      failed: [{ source: join(mail, '3.eml'), reason: 'The file does not start with mail headers.' }],
    });
    const second = await skimmer(['import', mail, '--json'], { SKIMMER_DATA_DIR: data });
    expect(JSON.parse(second.stdout)).toMatchObject({ imported: 0, duplicates: 2 });

    const search = await skimmer(['--data', data, 'search', 'quarterly', '--json', '--limit', '5']);
    expect(search.code).toBe(0);
    const hits = search.stdout
      .trim()
      .split('\n')
      .map((l) => SearchHit.parse(JSON.parse(l)));
    // One hit for the thread of both: its newest message (the two share a date; the later stored wins).
    expect(hits.map((h) => h.messageId)).toEqual(['<2@x>']);
  });

  test.each([
    [['frobnicate'], 2, 'Unknown command'],
    [['import'], 2, 'Name at least one file'],
    [['search', 'x', '--limit', 'many'], 2, 'limit'],
    [['serve', '--port', '99999'], 2, '--port'],
    [['--bogus'], 2, 'skimmer does not take --bogus before a command.'],
  ])('skimmer %j exits %i with one clear sentence', async (args, code, text) => {
    const r = await skimmer(['--data', tempDir(), ...args]);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test('service add reads the key from stdin and service list never shows it', async () => {
    const data = tempDir();
    const key = 'sk-test-canary-cli-0123';
    const add = await skimmer(
      [
        '--data',
        data,
        'service',
        'add',
        'local',
        '--kind',
        'openai',
        '--base',
        'http://127.0.0.1:11434/v1/chat/completions',
        '--key-stdin',
      ],
      {},
      `${key}\n`,
    );
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('requests go to http://127.0.0.1:11434/v1/chat/completions');
    const list = await skimmer(['--data', data, 'service', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({
      name: 'local',
      baseUrl: 'http://127.0.0.1:11434/v1',
      hasKey: true,
    });
    expect(add.stdout + add.stderr + list.stdout + list.stderr).not.toContain(key);
    const bad = await skimmer([
      '--data',
      data,
      'service',
      'add',
      'remote',
      '--kind',
      'openai',
      '--base',
      'http://api.example.com',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Plain http://');
  });

  test('service models lists what a local server offers, as service/model', async () => {
    const server = createServer((req, res) => {
      res.writeHead(
        req.url === '/v1/models' && req.headers.authorization === 'Bearer local-key-123456' ? 200 : 404,
        {
          'content-type': 'application/json',
        },
      );
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const data = tempDir();
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      await skimmer(
        ['--data', data, 'service', 'add', 'ollama', '--kind', 'openai', '--base', base, '--key-stdin'],
        {},
        'local-key-123456',
      );
      const r = await skimmer(['--data', data, 'service', 'models', 'ollama']);
      expect(r.code).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual(['ollama/llama3.2', 'ollama/qwen3:8b']);
      const tested = await skimmer(['--data', data, 'service', 'test', 'ollama']);
      expect(tested.code).toBe(0);
      expect(tested.stdout).toContain('Connected: the service offers 2 models.');
      const missing = await skimmer(['--data', data, 'service', 'models', 'nope']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no service named "nope"');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test('without --data keeps its data where the desktop app does (electron/data-dir.ts)', async () => {
    const config = tempDir();
    const env = { SKIMMER_DATA_DIR: '', XDG_CONFIG_HOME: config };
    const r = await skimmer(['import', mail, '--json'], env);
    expect(r.code).toBe(0);
    const folder = defaultDataDir(env, process.platform, homedir());
    expect(folder).toBe(join(config, 'Skimmer'));
    expect(existsSync(join(folder, dbFileName))).toBe(true);
  });
});

// Every command, as `skimmer … --help` names it (a family's subcommands one by one).
const everyCommand = [
  'import',
  'search',
  'serve',
  'service add',
  'service list',
  'service models',
  'service consent',
  'service test',
  'account add',
  'account list',
  'account test',
  'account sync',
  'identity add',
  'identity list',
  'identity remove',
  'attachment list',
  'attachment save',
  'judge',
  'summarize',
  'ask',
  'resume',
];

describe('each command takes only its own flags', () => {
  // Nothing runs: the refusal comes before the command does anything.
  const refused = async (args: string[], sentence: string) => {
    const r = await skimmer(['--data', tempDir(), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(sentence);
    expect(r.stdout).toBe('');
  };

  test.each([
    [['import', mail, '--frobnicate'], 'skimmer import does not take --frobnicate.'],
    [['search', 'report', '--frobnicate'], 'skimmer search does not take --frobnicate.'],
    [['serve', '--frobnicate'], 'skimmer serve does not take --frobnicate.'],
    [['service', 'list', '--frobnicate'], 'skimmer service list does not take --frobnicate.'],
    [['account', 'sync', 'work', '--once', '-x'], 'skimmer account sync does not take -x.'],
    [['judge', 'dec/m', '--all', '--frobnicate'], 'skimmer judge does not take --frobnicate.'],
    [
      ['summarize', 'local/m', '--thread', '1', '--frobnicate'],
      'skimmer summarize does not take --frobnicate.',
    ],
    [['ask', 'local/m', 'hi', '--frobnicate=1'], 'skimmer ask does not take --frobnicate.'],
    [['resume', '1', '--frobnicate'], 'skimmer resume does not take --frobnicate.'],
  ])('refuses an unknown flag: skimmer %j', refused);

  test.each([
    [['import', '--questions', 'x.json', mail], 'skimmer import does not take --questions.'],
    [['search', 'report', '--port', '1'], 'skimmer search does not take --port.'],
    [['service', 'list', '--kind', 'openai'], 'skimmer service list does not take --kind.'],
    [['account', 'test', 'work', '--once'], 'skimmer account test does not take --once.'],
    [['judge', 'dec/m', '--all', '--thread', '1'], 'skimmer judge does not take --thread.'],
    [['ask', 'local/m', 'hi', '--deny', 'call_1'], 'skimmer ask does not take --deny.'],
    [['resume', '1', '--tools'], 'skimmer resume does not take --tools.'],
    [['--limit', '5', 'search', 'report'], 'skimmer does not take --limit before a command.'],
  ])('refuses a flag of another command: skimmer %j', refused);

  test('a flag without its value is named', async () => {
    await refused(['search', 'report', '--limit'], 'skimmer search: --limit needs a value.');
  });

  test.each(everyCommand)("skimmer %s --help prints that command's usage and exits 0", async (command) => {
    const r = await skimmer(['--data', tempDir(), ...command.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: skimmer \\[--data DIR\\] ${command}( |$)`));
    expect(r.stdout).toContain('--data DIR');
    expect(r.stdout).not.toContain('Commands:');
  });

  test.each([
    ['service', 'service add NAME', 'account'],
    ['account', 'account sync NAME --once', 'service'],
  ])('skimmer %s --help lists that family only', async (family, line, other) => {
    const r = await skimmer([family, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(line);
    expect(r.stdout).not.toContain(`${other} `);
  });

  test('skimmer --help still prints the whole usage, every command in it', async () => {
    const r = await skimmer(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: skimmer \[--data DIR\] <command> \[options\]/);
    for (const command of everyCommand) expect(r.stdout).toContain(`  ${command}`);
    expect(r.stdout).toContain('--data DIR');
  });
});
