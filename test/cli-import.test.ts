// `skimmer import` run as a real process, the way users run it (through its import worker and parse threads): the
// state a Maildir's names and an mbox's headers kept, paths the person at the shell names outside the places the
// renderer is held to, and the exit code when nothing could be imported.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../electron/app.ts';
import { placeRefusal, userPlaces } from '../electron/files/safe-open.ts';
import { SearchHit } from '../shared/contract/index.ts';
import { call, importOver } from './support/bridge.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { makeFifo } from './support/special-files.ts';
import { eml, tempDir } from './support/temp.ts';

const run = promisify(execFile);
const skimmerBin = join(projectRoot, 'bin', 'skimmer.mjs');
const fromLine = (id: string) => `From ${id}@example.com Sun Nov 29 10:00:00 2026`;
// A message as an mbox holds it: the From_ line, then the headers given before the message's own.
const mboxMessage = (id: string, headers: string[]) =>
  [fromLine(id), ...headers, ...eml({ id: `<${id}@example.com>`, subject: id }).split('\r\n')].join('\n');

const subjects = async (data: string, query: string) => {
  const r = await runSkimmer(['--data', data, 'search', query, '--json', '--limit', '50']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim() === ''
    ? []
    : jsonLines(r.stdout)
        .map((l) => SearchHit.parse(l).subject)
        .sort();
};

describe('skimmer import keeps what the mailbox knew of each message', () => {
  test('an mbox by its Status headers and a Maildir by its file names: read, starred, in the Trash', async () => {
    const mail = tempDir();
    writeFileSync(
      join(mail, 'Archive.mbox'),
      [
        mboxMessage('mbox-read', ['Status: RO']),
        mboxMessage('mbox-old', ['Status: O']),
        mboxMessage('mbox-flagged', ['Status: RO', 'X-Status: F']),
        mboxMessage('mbox-deleted', ['Status: RO', 'X-Status: D']),
        mboxMessage('thunderbird-read', ['X-Mozilla-Status: 0001']),
        mboxMessage('thunderbird-expunged', ['X-Mozilla-Status: 0009']),
      ].join('\n'),
    );
    const maildir = join(mail, 'Work');
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
    const named = { '1.h:2,S': 'maildir-seen', '2.h:2,RS': 'maildir-replied', '3.h:2,ST': 'maildir-trashed' };
    for (const [name, id] of Object.entries(named))
      writeFileSync(join(maildir, 'cur', name), eml({ id: `<${id}@example.com>`, subject: id }));
    writeFileSync(
      join(maildir, 'new', '4.h'),
      eml({ id: '<maildir-new@example.com>', subject: 'maildir-new' }),
    );

    const data = tempDir();
    const first = await runSkimmer(['--data', data, 'import', mail, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ imported: 10, duplicates: 0, failed: [] });
    // Search leaves out the Trash unless asked (DESIGN §11), as the Inbox view does.
    expect(await subjects(data, 'is:unread')).toEqual(['maildir-new', 'mbox-old']);
    expect(await subjects(data, 'is:read')).toEqual([
      'maildir-replied',
      'maildir-seen',
      'mbox-flagged',
      'mbox-read',
      'thunderbird-read',
    ]);
    expect(await subjects(data, 'is:starred')).toEqual(['mbox-flagged']);
    expect(await subjects(data, 'in:trash')).toEqual([
      'maildir-trashed',
      'mbox-deleted',
      'thunderbird-expunged',
    ]);

    const again = await runSkimmer(['--data', data, 'import', mail, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ imported: 0, duplicates: 10, failed: [] });
  });
});

// The places rule (files/safe-open.ts) is for paths the renderer names, which hostile content may have chosen; a path
// typed at the shell was chosen by the person who runs the command.
describe('a folder outside the home folder, the temporary folder and removable drives', () => {
  // /var/tmp: outside the places on every system (unless TMPDIR points there, which the check below would catch),
  // and writable by anyone, so the test needs no root.
  const outside = mkdtempSync('/var/tmp/skimmer-test-');
  const spool = join(outside, 'mail', 'ann');
  mkdirSync(join(outside, 'mail'));
  // A mail spool as /var/mail/$USER holds it: an mbox without an extension.
  writeFileSync(spool, mboxMessage('spool', ['Status: O']));

  const data = tempDir();
  const app = createApp({ dataDir: data, mode: 'browser' });
  afterAll(async () => {
    await app.close();
    rmSync(outside, { recursive: true, force: true });
  });

  const importOverBridge = (paths: string[], over: App = app) => importOver(over, { paths });

  test('is refused when the renderer names it and imported when the command line does', async () => {
    expect(placeRefusal(realpathSync(spool), userPlaces())).toBe('outside');
    expect(await importOverBridge([spool])).toEqual({
      type: 'import_done',
      cancelled: false,
      summary: {
        imported: 0,
        duplicates: 0,
        failed: [
          {
            source: spool,
            reason:
              'Skimmer opens files only from your home folder, the temporary folder and removable drives: copy it there first.',
          },
        ],
      },
    });

    const cli = await runSkimmer(['--data', tempDir(), 'import', spool]);
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toBe('Imported 1 messages, 0 already there, 0 failed.\n');
    expect(cli.code).toBe(0);
  });

  // The desktop's own dialog is the person choosing, as the shell is (issue 27): what it returned may be imported.
  test('is imported over the bridge once the desktop dialog returned it, and only what it returned', async () => {
    const other = join(outside, 'mail', 'bob');
    writeFileSync(other, mboxMessage('other', ['Status: O']));
    const desktop = createApp({ dataDir: tempDir(), mode: 'browser', pickPaths: async () => [spool] });
    try {
      const refused = (path: string) => ({
        source: path,
        reason:
          'Skimmer opens files only from your home folder, the temporary folder and removable drives: copy it there first.',
      });
      expect(await importOverBridge([spool], desktop)).toMatchObject({
        summary: { failed: [refused(spool)] },
      });
      expect(await call(desktop, 'files:pick', { purpose: 'mail', kind: 'files' })).toEqual({
        available: true,
        paths: [spool],
      });
      expect(await importOverBridge([spool, other], desktop)).toMatchObject({
        type: 'import_done',
        summary: { imported: 1, duplicates: 0, failed: [refused(other)] },
      });
    } finally {
      await desktop.close();
    }
  });

  test('a folder there is walked, named by a path relative to where the command runs', async () => {
    const folder = join(outside, 'export');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.eml'), eml({ id: '<a@outside>', subject: 'a' }));
    // `npx skimmer import fixtures/demo` from a checkout in /srv: the path is the shell's, from its folder.
    const r = await run(process.execPath, [skimmerBin, '--data', tempDir(), 'import', 'export', '--json'], {
      cwd: outside,
    });
    expect(JSON.parse(r.stdout)).toEqual({ imported: 1, duplicates: 0, failed: [] });
  });

  test('the other guards still hold at the command line: /proc, devices, FIFOs and the data folder', async () => {
    const data = tempDir();
    writeFileSync(join(data, 'kept.eml'), eml({ id: '<kept@data>', subject: 'in the data folder' }));
    makeFifo(join(outside, 'fifo.eml'));
    symlinkSync('/proc/self/environ', join(outside, 'environ.eml'));
    const paths = [
      '/proc/self/environ',
      join(outside, 'environ.eml'),
      '/dev/zero',
      join(outside, 'fifo.eml'),
      join(data, 'kept.eml'),
    ];
    const r = await runSkimmer(['--data', data, 'import', ...paths, '--json']);
    const system = 'This is a system file (under /proc, /sys or /dev), not one of yours.';
    expect(JSON.parse(r.stdout)).toEqual({
      imported: 0,
      duplicates: 0,
      failed: [
        { source: paths[0], reason: system },
        { source: paths[1], reason: system },
        { source: paths[2], reason: system },
        { source: paths[3], reason: 'This is a pipe, not a file.' },
        { source: paths[4], reason: "This is in Skimmer's own data folder." },
      ],
    });
    expect(r.code).toBe(1);
  });
});

describe('the exit code of skimmer import', () => {
  const mail = tempDir();
  writeFileSync(join(mail, 'good.eml'), eml({ id: '<good@x>', subject: 'good' }));
  writeFileSync(join(mail, 'bad.eml'), 'not mail');
  const missing = join(mail, 'missing.mbox');

  test('is 1 with one sentence naming the source when the one source named failed', async () => {
    const r = await runSkimmer(['--data', tempDir(), 'import', join(mail, 'bad.eml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Nothing was imported: ${join(mail, 'bad.eml')}: The file does not start with mail headers.\n`,
    );
    expect(r.stdout).toContain('Imported 0 messages, 0 already there, 1 failed.');
  });

  test('is 1 when every source failed, with the summary still on stdout for --json', async () => {
    const r = await runSkimmer(['--data', tempDir(), 'import', join(mail, 'bad.eml'), missing, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Nothing was imported: none of it could be read, and each failure is listed.\n');
    expect(JSON.parse(r.stdout)).toEqual({
      imported: 0,
      duplicates: 0,
      // What the plan refused comes before what failed as it was read.
      failed: [
        { source: missing, reason: 'No such file or folder.' },
        { source: join(mail, 'bad.eml'), reason: 'The file does not start with mail headers.' },
      ],
    });
  });

  test('is 0 when some were imported or already there and some failed, as the README says', async () => {
    const data = tempDir();
    const partly = await runSkimmer(['--data', data, 'import', mail, missing, '--json']);
    expect(JSON.parse(partly.stdout)).toMatchObject({ imported: 1, duplicates: 0 });
    expect(partly.code).toBe(0);
    // Read again: the good message is there already, which is no failure.
    const again = await runSkimmer(['--data', data, 'import', mail, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, duplicates: 1 });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });

  test('is 0 for a folder with no mail in it: nothing failed', async () => {
    const r = await runSkimmer(['--data', tempDir(), 'import', tempDir(), '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ imported: 0, duplicates: 0, failed: [] });
    expect(r.code).toBe(0);
  });
});
