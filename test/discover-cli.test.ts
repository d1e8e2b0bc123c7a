// `skimmer account discover`: as a real process for what needs no network (the usage, an address that is not one,
// a provider from the built-in table), and in this process, on an app whose discovery asks the tests' own DNS and
// web servers, for what it prints of settings found over plain HTTP and for nothing found.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { discoverHandlers } from '../electron/bridge/handlers/discover.ts';
import { discoverCommand } from '../electron/cli/discover.ts';
import { readCommandLine } from '../electron/cli/flags.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { resolverFor, startDnsServer } from './support/dns-server.ts';
import { startHttpServer } from './support/https-server.ts';
import { tempDir } from './support/temp.ts';

const data = tempDir();
const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);

describe('skimmer account discover, as a process', () => {
  test('an address that is not one exits 2 with its sentence', async () => {
    const r = await skimmer(['account', 'discover', 'ana.example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('"ana.example.com" is not a mail address: type it as name@example.com.');
    expect(r.stdout).toBe('');
  });

  test('a built-in provider: the settings, where they came from, and the line that adds the account', async () => {
    const r = await skimmer(['account', 'discover', 'ana@outlook.com']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('IMAP     outlook.office365.com:993 tls');
    expect(r.stdout).toContain("from built-in (Skimmer's table of providers: Microsoft)");
    expect(r.stdout).toContain('Sign-in  OAuth sign-in (microsoft)');
    expect(r.stdout).toContain(
      'skimmer account add NAME --imap-host outlook.office365.com --imap-port 993 --tls tls --user ana@outlook.com --smtp-host smtp.office365.com --smtp-port 587 --smtp-tls starttls --oauth microsoft --client-id ID',
    );
    const json = await skimmer(['account', 'discover', 'ana@icloud.com', '--json']);
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({
        settings: expect.objectContaining({
          auth: 'password',
          imap: { host: 'imap.mail.me.com', port: 993, tls: 'tls' },
        }),
        warnings: [],
      }),
    ]);
  });

  test('takes no flag of another command, and needs the address', async () => {
    const flag = await skimmer(['account', 'discover', 'ana@icloud.com', '--password-stdin']);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe('skimmer account discover does not take --password-stdin.');
    const none = await skimmer(['account', 'discover']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('account discover ADDRESS');
  });
});

describe('skimmer account discover, against local servers', () => {
  const app = createApp({ dataDir: tempDir(), mode: 'browser' });
  afterAll(() => app.close());
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const run = async (address: string, json = false) => {
    out.length = 0;
    err.length = 0;
    const line = readCommandLine(['account', 'discover', address, ...(json ? ['--json'] : [])], data);
    if (line.kind !== 'run') throw new Error(line.text);
    return discoverCommand(app, line.args, line.values, io);
  };

  beforeAll(async () => {
    const [dns, http] = await Promise.all([
      startDnsServer({ a: { 'autoconfig.cli.test': '127.0.0.1' } }),
      startHttpServer(),
    ]);
    http.serve(
      'autoconfig.cli.test',
      '/mail/config-v1.1.xml',
      `<clientConfig version="1.1"><emailProvider id="cli.test">
        <incomingServer type="imap"><hostname>imap.cli.test</hostname><port>143</port>
          <socketType>STARTTLS</socketType><username>%EMAILLOCALPART%</username></incomingServer>
      </emailProvider></clientConfig>`,
    );
    Object.assign(
      app.handlers,
      discoverHandlers({ resolver: resolverFor(dns.port), ports: { https: 1, http: http.port } }),
    );
  });

  test('settings over plain HTTP are printed as unverified, with the warnings', async () => {
    expect(await run('ana@cli.test')).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(
      /^ {2}IMAP {5}imap\.cli\.test:143 starttls +from autoconfig \(http\) \(http:\/\/autoconfig\.cli\.test:/m,
    );
    expect(text).toContain(', unverified: check it');
    expect(text).toContain('  SMTP     none found');
    expect(text).toContain('  User     ana');
    expect(text).toMatch(
      /^Warning: The settings from http:\/\/autoconfig\.cli\.test:\d+\/mail\/config-v1\.1\.xml came over plain HTTP/m,
    );
    expect(text).toContain('Warning: No SMTP server was found');
    expect(text).toContain(
      '--imap-host imap.cli.test --imap-port 143 --tls starttls --user ana --password-stdin',
    );
    expect(await run('ana@cli.test', true)).toBe(0);
    expect(JSON.parse(out[0] ?? '').sources[0]).toMatchObject({ from: 'autoconfig (http)', verified: false });
  });

  test('nothing found exits 1 with the sentence on stderr', async () => {
    expect(await run('ana@nowhere.cli.test')).toBe(1);
    expect(out).toEqual([]);
    expect(err[0]).toMatch(/^No mail settings were found for nowhere\.cli\.test/);
  });
});
