// `skimmer draft …`, run as a real process the way users run it, against one data folder with imported mail.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';

const data = tempDir();
const files = tempDir();
const skimmer = (args: string[], input?: string) =>
  runSkimmer(['--data', data, ...args], input === undefined ? {} : { input });

const original = [
  'From: Priya Raman <priya@example.com>',
  'To: Bob <bob@example.com>, Sam <sam@example.com>',
  'Cc: Lee <lee@example.com>',
  'Subject: Re: Budget for Q3',
  'Date: Sun, 29 Nov 2026 10:00:00 +0000',
  'Message-ID: <budget-2@example.com>',
  'In-Reply-To: <budget-1@example.com>',
  'References: <budget-1@example.com>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The numbers are in.',
  '',
].join('\r\n');

// A message with a file, which a forward carries.
const photo = randomBytes(2048);
const withFile = [
  'From: Lee <lee@example.com>',
  'To: Bob <bob@example.com>',
  'Subject: The photo',
  'Date: Sun, 29 Nov 2026 11:00:00 +0000',
  'Message-ID: <photo@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Here it is.',
  '--b1',
  'Content-Type: image/jpeg; name="photo.jpg"',
  'Content-Disposition: attachment; filename="photo.jpg"',
  'Content-Transfer-Encoding: base64',
  '',
  photo.toString('base64').replace(/.{76}/g, '$&\r\n'),
  '--b1--',
  '',
].join('\r\n');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let messageId = 0;
let photoMessage = 0;

beforeAll(async () => {
  const mail = join(files, 'mail');
  mkdirSync(mail);
  writeFileSync(join(mail, 'budget.eml'), original);
  writeFileSync(join(mail, 'photo.eml'), withFile);
  expect((await skimmer(['import', mail])).code).toBe(0);
  expect((await skimmer(['identity', 'add', 'bob@example.com', '--name', 'Bob'])).code).toBe(0);
  const [hit] = jsonLines((await skimmer(['search', 'budget', '--json'])).stdout);
  messageId = hit?.id as number;
  const [photoHit] = jsonLines((await skimmer(['search', 'subject:photo', '--json'])).stdout);
  photoMessage = photoHit?.id as number;
});

describe('skimmer draft', () => {
  test('writes a new draft from the flags and a body file, and shows it', async () => {
    const body = join(files, 'body.txt');
    writeFileSync(body, 'Hi both,\nsee you at ten.\n');
    const r = await skimmer([
      'draft',
      'new',
      '--to',
      'Ann@Example.com',
      '--to',
      'zed@example.com',
      '--cc',
      'kim@example.com',
      '--subject',
      'Meeting',
      '--body-file',
      body,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [draft] = jsonLines(r.stdout);
    expect(draft).toMatchObject({
      from: null,
      to: [{ address: 'Ann@Example.com' }, { address: 'zed@example.com' }],
      cc: [{ address: 'kim@example.com' }],
      bcc: [],
      subject: 'Meeting',
      body: 'Hi both,\nsee you at ten.\n',
      inReplyTo: null,
      references: [],
      attachments: [],
    });
    const shown = jsonLines((await skimmer(['draft', 'show', String(draft?.id), '--json'])).stdout);
    expect(shown).toEqual([draft]);
  });

  test('reads the body from standard input with --body-file -', async () => {
    const r = await skimmer(
      ['draft', 'new', '--to', 'ann@example.com', '--body-file', '-', '--json'],
      'From stdin',
    );
    expect(jsonLines(r.stdout)[0]).toMatchObject({ body: 'From stdin' });
  });

  test('replies to the sender once with Re:, the thread headers and the original quoted under your text', async () => {
    const r = await skimmer(['draft', 'reply', String(messageId), '--body-file', '-', '--json'], 'Thanks!');
    expect(r.stderr).toBe('');
    const [draft] = jsonLines(r.stdout);
    expect(draft).toMatchObject({
      to: [{ address: 'priya@example.com' }],
      cc: [],
      subject: 'Re: Budget for Q3',
      inReplyTo: '<budget-2@example.com>',
      references: ['<budget-1@example.com>', '<budget-2@example.com>'],
    });
    const body = draft?.body as string;
    expect(body.startsWith('Thanks!\n\n')).toBe(true);
    expect(body).toContain('Priya Raman wrote:\n> The numbers are in.');
  });

  test('replies to all without your own address', async () => {
    const r = await skimmer(['draft', 'reply', String(messageId), '--all', '--json']);
    const [draft] = jsonLines(r.stdout);
    expect(draft?.to).toEqual([{ address: 'priya@example.com' }, { address: 'sam@example.com' }]);
    expect(draft?.cc).toEqual([{ address: 'lee@example.com' }]);
  });

  test('forwards with Fwd:, the headers block and the text, to the given address', async () => {
    const r = await skimmer(['draft', 'forward', String(messageId), '--to', 'kim@example.com', '--json']);
    const [draft] = jsonLines(r.stdout);
    expect(draft).toMatchObject({
      to: [{ address: 'kim@example.com' }],
      subject: 'Fwd: Budget for Q3',
      inReplyTo: null,
      references: [],
    });
    expect(draft?.body).toContain(
      '---------- Forwarded message ---------\nFrom: Priya Raman <priya@example.com>\n',
    );
    expect(draft?.body).toContain(
      'Subject: Re: Budget for Q3\nTo: Bob <bob@example.com>, Sam <sam@example.com>',
    );
    expect(draft?.body).toContain('The numbers are in.');
  });

  test('keeps Bcc, a From of your addresses and attached files, and prints them', async () => {
    const notes = join(files, 'notes.txt');
    writeFileSync(notes, 'Agenda.\n');
    const r = await skimmer([
      'draft',
      'new',
      '--to',
      'ann@example.com',
      '--bcc',
      'boss@example.com,audit@example.com',
      '--from',
      'Bob@Example.com',
      '--attach',
      notes,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const [draft] = jsonLines(r.stdout);
    expect(draft).toMatchObject({
      from: { name: 'Bob', address: 'bob@example.com' },
      bcc: [{ address: 'boss@example.com' }, { address: 'audit@example.com' }],
      attachments: [{ name: 'notes.txt', size: 8 }],
    });
    const shown = jsonLines((await skimmer(['draft', 'show', String(draft?.id), '--json'])).stdout);
    expect(shown).toEqual([draft]);
  });

  test("a forward carries the original's attachments", async () => {
    const r = await skimmer(['draft', 'forward', String(photoMessage), '--to', 'kim@example.com', '--json']);
    expect(r.stderr).toBe('');
    expect(jsonLines(r.stdout)[0]).toMatchObject({
      subject: 'Fwd: The photo',
      attachments: [{ name: 'photo.jpg', size: expect.any(Number) }],
    });
  });

  test('lists the drafts and discards one', async () => {
    const made = jsonLines(
      (await skimmer(['draft', 'new', '--to', 'x@example.com', '--subject', 'Gone', '--json'])).stdout,
    );
    const id = made[0]?.id as number;
    const before = jsonLines((await skimmer(['draft', 'list', '--json'])).stdout);
    expect(before.map((d) => d.id)).toContain(id);
    expect(before[0]).toMatchObject({ id, subject: 'Gone', bcc: [], attachments: [] });
    const discard = await skimmer(['draft', 'discard', String(id)]);
    expect(discard.code).toBe(0);
    expect(discard.stdout.trim()).toBe(`Discarded draft ${id}.`);
    const after = jsonLines((await skimmer(['draft', 'list', '--json'])).stdout);
    expect(after.map((d) => d.id)).not.toContain(id);
    const again = await skimmer(['draft', 'discard', String(id)]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`There is no draft ${id}: see \`skimmer draft list\`.`);
  });

  test.each([
    [['draft', 'reply', '999999'], 'There is no message with id 999999.'],
    [
      ['draft', 'new', '--to', 'not an address'],
      '"not an address" is not a mail address: give one like name@example.com.',
    ],
    [['draft', 'forward', '1'], 'draft forward needs --to ADDRESS.'],
    [
      ['draft', 'new', '--to', 'a@example.com', '--from', 'eve@example.com'],
      'The From address is not one of your addresses: add it under Your addresses (skimmer identity add) to send from it.',
    ],
    [
      ['draft', 'new', '--to', 'a@example.com', '--attach', '/proc/self/environ'],
      'environ cannot be attached: This is a system file (under /proc, /sys or /dev), not one of yours.',
    ],
    [['draft', 'show', '999999'], 'That draft does not exist.'],
  ])('refuses %j with one sentence', async (args, sentence) => {
    const r = await skimmer(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(sentence);
    expect(r.stdout).toBe('');
  });

  test('refuses to send a draft when no account can send', async () => {
    const made = jsonLines((await skimmer(['draft', 'new', '--to', 'x@example.com', '--json'])).stdout);
    const r = await skimmer(['draft', 'send', String(made[0]?.id)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('No account can send mail yet: add a mail account with an SMTP server.');
  });
});

describe('skimmer draft send', () => {
  const sending = tempDir();
  const send = (args: string[], input?: string) =>
    runSkimmer(['--data', sending, ...args], input === undefined ? {} : { input });
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink({ user: 'cli@example.com', pass: 'secret' });
    // The IMAP side is never reached: sending needs only the SMTP server.
    const add = await send(
      [
        'account',
        'add',
        'work',
        '--imap-host',
        '127.0.0.1',
        '--imap-port',
        '1',
        '--tls',
        'none',
        '--user',
        'cli@example.com',
        '--password-stdin',
        '--smtp-host',
        sink.host,
        '--smtp-port',
        String(sink.port),
        '--smtp-tls',
        'none',
      ],
      'secret',
    );
    expect(add.code).toBe(0);
  });
  afterAll(() => sink?.close());

  test('waits out the undo window, sends the draft by SMTP from the account, and removes it from the drafts', async () => {
    const made = await send(
      [
        'draft',
        'new',
        '--to',
        'carol@example.org',
        '--subject',
        'Lunch',
        '--from',
        'CLI@example.com',
        '--body-file',
        '-',
        '--json',
      ],
      'Noon works.',
    );
    expect(made.stderr).toBe('');
    const [draft] = jsonLines(made.stdout);
    expect(draft).toMatchObject({
      from: { address: 'cli@example.com' },
      to: [{ address: 'carol@example.org' }],
    });
    const r = await send(['draft', 'send', String(draft?.id), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toMatchObject([{ state: 'sent', to: ['carol@example.org'] }]);
    expect(sink.received).toHaveLength(1);
    const [message] = sink.received;
    expect(message?.to).toEqual(['carol@example.org']);
    const raw = message?.raw.toString('utf8') ?? '';
    expect(raw).toMatch(/^Subject: Lunch$/m);
    expect(raw).toMatch(/^From: cli@example\.com$/m);
    expect(raw).toContain('Noon works.');
    expect((await send(['draft', 'list', '--json'])).stdout).toBe('');
  }, 30_000);

  test('sends the attached file intact and Bcc only in the envelope', async () => {
    const file = join(files, 'data.bin');
    const bytes = randomBytes(1024 * 1024 + 333); // more than one chunk
    writeFileSync(file, bytes);
    const made = await send([
      'draft',
      'new',
      '--to',
      'carol@example.org',
      '--bcc',
      'hidden@example.org',
      '--subject',
      'Data',
      '--attach',
      file,
      '--json',
    ]);
    expect(made.stderr).toBe('');
    const [draft] = jsonLines(made.stdout);
    const before = sink.received.length;
    const r = await send(['draft', 'send', String(draft?.id), '--json']);
    expect(r.code).toBe(0);
    const [message] = (await sink.waitFor(before + 1)).slice(before);
    expect(message?.to.sort()).toEqual(['carol@example.org', 'hidden@example.org']);
    const raw = message?.raw ?? Buffer.alloc(0);
    expect(raw.toString('utf8')).not.toMatch(/^Bcc:/im);
    expect(raw.toString('utf8')).not.toContain('hidden@example.org');
    const parsed = await simpleParser(raw);
    expect(parsed.attachments.map((a) => [a.filename, sha(a.content)])).toEqual([['data.bin', sha(bytes)]]);
  }, 30_000);
});
