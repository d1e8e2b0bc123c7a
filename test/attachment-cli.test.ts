// `skimmer attachment list|save` (issue 29 §1), run as real processes the way users run them: the bytes saved are
// the original part's, byte for byte (sha256 against mailparser's reading of the original file, or against what
// was appended to a real Dovecot), read from where the message lives; a name from mail never picks the path.
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { tempDir } from './support/temp.ts';

const data = tempDir();
const mail = tempDir();
const skimmer = (args: string[], input?: string) =>
  runSkimmer(['--data', data, ...args], input === undefined ? {} : { input });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let server: Dovecot;

// A message with attached files, as a mail program writes it (base64 in 76-character lines).
function withFiles(id: string, subject: string, files: { name: string; type: string; bytes: Buffer }[]) {
  return [
    'From: Lee <lee@example.org>',
    'To: Test <cli@example.com>',
    `Subject: ${subject}`,
    'Date: Sun, 29 Nov 2026 11:00:00 +0000',
    `Message-ID: ${id}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `About ${subject}.`,
    ...files.flatMap((f) => [
      '--b1',
      `Content-Type: ${f.type}; name="${f.name}"`,
      `Content-Disposition: attachment; filename="${f.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      f.bytes.toString('base64').replace(/.{76}/g, '$&\r\n'),
    ]),
    '--b1--',
    '',
  ].join('\r\n');
}

const report = randomBytes(300_000);
const hostile = [
  '../../evil.sh',
  '/etc/passwd',
  'CON',
  '.bashrc',
  'same.txt',
  'same.txt',
  'invoice\u202Efdp.exe',
  '..\\..\\win.ini',
].map((name) => ({ name, type: 'application/octet-stream', bytes: randomBytes(100) }));
const inMbox = randomBytes(9_000);
const onServer = randomBytes(500_000);

async function idOf(query: string): Promise<number> {
  const [hit] = jsonLines((await skimmer(['search', query, '--json'])).stdout);
  return Number(hit?.id);
}
const saveJson = async (args: string[]) => {
  const r = await skimmer(['attachment', 'save', ...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return jsonLines(r.stdout);
};

beforeAll(async () => {
  server = await startDovecot({ users: [{ user: 'cli@example.com', pass: 'pw-attach' }] });
  await server.append(
    'INBOX',
    [
      withFiles('<server@example.org>', 'Server copy', [
        { name: 'big.bin', type: 'application/zip', bytes: onServer },
      ]),
    ],
    [],
    'cli@example.com',
  );
  cpSync(join(import.meta.dirname, '../fixtures/demo'), join(mail, 'demo'), { recursive: true });
  writeFileSync(
    join(mail, 'report.eml'),
    withFiles('<report@example.org>', 'Report', [
      { name: 'report.pdf', type: 'application/pdf', bytes: report },
    ]),
  );
  writeFileSync(join(mail, 'hostile.eml'), withFiles('<hostile@example.org>', 'Hostile names', hostile));
  const first = withFiles('<m1@example.org>', 'First in mbox', [
    { name: 'a.txt', type: 'text/plain', bytes: randomBytes(10) },
  ]);
  const second = withFiles('<m2@example.org>', 'Second in mbox', [
    { name: 'b.bin', type: 'application/octet-stream', bytes: inMbox },
  ]);
  writeFileSync(
    join(mail, 'saved.mbox'),
    `From a@b Sun Nov 29 10:00:00 2026\r\n${first}\r\nFrom a@b Sun Nov 29 11:00:00 2026\r\n${second}\r\n`,
  );
  expect((await skimmer(['import', mail])).code).toBe(0);
  const add = await skimmer(
    [
      'account',
      'add',
      'work',
      '--imap-host',
      '127.0.0.1',
      '--imap-port',
      String(server.port),
      '--tls',
      'none',
      '--user',
      'cli@example.com',
      '--password-stdin',
    ],
    'pw-attach\n',
  );
  expect(add.code).toBe(0);
  expect((await skimmer(['account', 'sync', 'work', '--once'])).code).toBe(0);
}, 90_000);
afterAll(() => server?.stop());

describe('skimmer attachment list', () => {
  test("lists a message's attachments, numbered from 1", async () => {
    const id = await idOf('has:attachment subject:"Invoice 1042"');
    const json = await skimmer(['attachment', 'list', String(id), '--json']);
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([
      { index: 1, name: 'invoice-1042.pdf', contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    const text = await skimmer(['attachment', 'list', String(id)]);
    expect(text.stdout.trim()).toMatch(/^1\tinvoice-1042\.pdf\tapplication\/pdf\t\d+ bytes$/);
  });

  test('shows a hostile name in the terminal without its control characters', async () => {
    const r = await skimmer(['attachment', 'list', String(await idOf('subject:"Hostile names"'))]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(hostile.length);
    expect(r.stdout).not.toContain('\u202E');
  });
});

describe('skimmer attachment save', () => {
  test("the demo invoice's bytes are the original part's", async () => {
    const original = await simpleParser(readFileSync(join(mail, 'demo', '09-invoice-1042.eml')));
    const part = original.attachments[0]?.content as Buffer;
    const to = tempDir();
    const [saved] = await saveJson([String(await idOf('has:attachment subject:"Invoice 1042"')), '--to', to]);
    expect(saved).toMatchObject({ index: 1, name: 'invoice-1042.pdf', path: join(to, 'invoice-1042.pdf') });
    expect(sha(readFileSync(join(to, 'invoice-1042.pdf')))).toBe(sha(part));
    expect(saved?.sha256).toBe(sha(part));
  });

  test('an imported .eml and a message of an mbox are saved byte for byte', async () => {
    const to = tempDir();
    await saveJson([String(await idOf('subject:Report')), '1', '--to', to]);
    expect(sha(readFileSync(join(to, 'report.pdf')))).toBe(sha(report));
    await saveJson([String(await idOf('subject:"Second in mbox"')), '--to', to]);
    expect(sha(readFileSync(join(to, 'b.bin')))).toBe(sha(inMbox));
  });

  test('a synced message is fetched from the IMAP server by UID, byte for byte', async () => {
    const to = tempDir();
    const [saved] = await saveJson([String(await idOf('subject:"Server copy"')), '--to', to]);
    expect(saved?.size).toBe(onServer.length);
    expect(sha(readFileSync(join(to, 'big.bin')))).toBe(sha(onServer));
  });

  test('hostile names stay in the folder chosen, visible, distinct, never executable', async () => {
    const parent = tempDir();
    const to = join(parent, 'here');
    mkdirSync(to);
    const saved = await saveJson([String(await idOf('subject:"Hostile names"')), '--all', '--to', to]);
    expect(saved).toHaveLength(hostile.length);
    expect(readdirSync(parent)).toEqual(['here']);
    expect(readdirSync(to).sort()).toEqual(
      [
        '_.._evil.sh',
        '_etc_passwd',
        '_CON',
        'bashrc',
        'same.txt',
        'same (2).txt',
        'invoicefdp.exe',
        'win.ini',
      ].sort(),
    );
    for (const [i, s] of saved.entries()) {
      const path = String(s.path);
      expect(path.startsWith(`${to}/`)).toBe(true);
      expect(statSync(path).mode & 0o111).toBe(0);
      expect(sha(readFileSync(path))).toBe(sha(hostile[i]?.bytes as Buffer));
    }
  });

  test('never replaces a file that is there, nor writes through a link planted at the name', async () => {
    const to = tempDir();
    const outside = join(tempDir(), 'bashrc-target');
    writeFileSync(outside, 'mine');
    writeFileSync(join(to, 'report.pdf'), 'keep me');
    symlinkSync(outside, join(to, 'report (2).pdf'));
    const [saved] = await saveJson([String(await idOf('subject:Report')), '--to', to]);
    expect(saved?.path).toBe(join(to, 'report (3).pdf'));
    expect(readFileSync(join(to, 'report.pdf'), 'utf8')).toBe('keep me');
    expect(readFileSync(outside, 'utf8')).toBe('mine');
    expect(lstatSync(join(to, 'report (2).pdf')).isSymbolicLink()).toBe(true);
    expect(sha(readFileSync(join(to, 'report (3).pdf')))).toBe(sha(report));
  });

  test('says which numbers there are when the number is wrong or missing', async () => {
    const hostileId = await idOf('subject:"Hostile names"');
    const none = await skimmer(['attachment', 'save', String(hostileId), '--to', tempDir()]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(
      `Message ${hostileId} has 8 attachments: give a number from 1 to 8, or --all (attachment list ${hostileId}).`,
    );
    const nine = await skimmer(['attachment', 'save', String(hostileId), '9', '--to', tempDir()]);
    expect(nine.code).toBe(1);
    expect(nine.stderr.trim()).toBe(`Message ${hostileId} has no attachment 9: it has 8 (numbered 1 to 8).`);
    const zero = await skimmer(['attachment', 'save', String(hostileId), '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('is not an attachment number');
    const missing = await skimmer(['attachment', 'list', '999999', '--json']);
    expect(missing.code).toBe(1);
    expect(jsonLines(missing.stdout)).toEqual([
      { type: 'error', code: 'not_found', message: 'There is no message with id 999999.' },
    ]);
  });

  test('a file changed since the import is refused, naming it, and nothing is written', async () => {
    const id = await idOf('subject:Report');
    const path = join(mail, 'report.eml');
    const before = readFileSync(path);
    writeFileSync(path, before.toString('latin1').replace('About Report.', 'About Rep0rt.'), 'latin1');
    const to = tempDir();
    try {
      const r = await skimmer(['attachment', 'save', String(id), '--to', to]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`The file ${path} this message was imported from has changed since.`);
      expect(readdirSync(to)).toEqual([]);
    } finally {
      writeFileSync(path, before);
    }
  });

  test('a folder that is not there is named', async () => {
    const to = join(tempDir(), 'missing');
    const r = await skimmer(['attachment', 'save', String(await idOf('subject:Report')), '--to', to]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`Cannot write into ${to}: it is not a folder.`);
  });
});
