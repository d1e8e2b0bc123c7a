// The direct reading of everyday mail (parse-direct.ts) against mailparser on the same bytes: rebuilt synced
// messages in every charset of the benchmark corpus and every transfer encoding, the header fields parse.ts
// stores, broken parts, the layouts of mail as it arrives (LF or CRLF, a missing Content-Type, format=flowed,
// HTML only, preamble and epilogue) and what is left to mailparser, and both benchmark corpora. "mailparser"
// here is parseWithMailparser, the path every message took before; its attachment-cutting pass leaves a
// text-only message as it is.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateMailbox } from '../../../bench/generate-mailbox.ts';
import {
  base64Lines,
  type Charset,
  charsetLabel,
  encodedWords,
  encodeExactly,
  quotedPrintable,
} from '../../../bench/mailbox/mime.ts';
import { tempDir } from '../../../test/support/temp.ts';
import { type FetchedPart, rebuild } from '../imap/imap-message.ts';
import { parseMessage, parseWithMailparser, readDirectMessage } from './parse.ts';
import { maxStoredText } from './parse-bounds.ts';
import { readDirect } from './parse-direct.ts';
import { createParsePool } from './parse-pool.ts';
import { splitMbox } from './sources.ts';

const options = { maxHtmlLength: maxStoredText };
// A text as a base64 body's lines (mime.ts, 76 to a line): the fixtures' attachments say in words what they
// stand for, so no run of random-looking characters sits in the source.
const base64Body = (text: string) => base64Lines(Buffer.from(text)).split('\n');
const headers = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
const baseHeaders = [
  'From: Anna Meyer <anna@example.com>',
  'To: Bob <bob@example.com>, carol@example.com',
  'Subject: Hello',
  'Date: Mon, 30 Nov 2026 09:00:00 +0000',
  'Message-ID: <base@example.com>',
];
const part = (
  type: FetchedPart['type'],
  charset: string,
  encoding: string,
  content: Buffer | string,
): FetchedPart => ({
  part: type === 'text/plain' ? '1' : '2',
  type,
  charset,
  encoding,
  content: Buffer.isBuffer(content) ? content : Buffer.from(content, 'latin1'),
});

/** Both readers on the same rebuilt bytes; the direct one must have taken the message. */
async function expectSameAsMailparser(raw: Buffer): Promise<void> {
  const direct = readDirectMessage(raw);
  expect(direct).not.toBeNull();
  expect(direct).toEqual(await parseWithMailparser(raw));
  expect(await parseMessage(raw, { rebuilt: true })).toEqual(direct);
}

const samples: Record<Charset, string> = {
  'utf-8': 'Grüße aus Köln — “quoted” €5 😀',
  'iso-8859-1': 'Grüße aus Köln, ça va? Ñandú',
  'windows-1252': 'Quote “this” – it costs €5… œ',
  'iso-8859-2': 'Zażółć gęślą jaźń, Łódź',
  'koi8-r': 'Привет, как дела? Счёт',
  shift_jis: '会議の日程について、お疲れ様です。',
  'iso-2022-jp': '会議の日程について、お疲れ様です。',
  gb2312: '下周安排，你好！',
  gb18030: '会议通知，你好！这是本周的报告。',
  big5: '會議通知，您好！',
  'euc-kr': '회의 일정 안내, 안녕하세요.',
};
const encodings = {
  '7bit': (b: Buffer) => b,
  '8bit': (b: Buffer) => b,
  'quoted-printable': (b: Buffer) => Buffer.from(quotedPrintable(b).replace(/\n/g, '\r\n'), 'latin1'),
  base64: (b: Buffer) => Buffer.from(base64Lines(b).replace(/\n/g, '\r\n'), 'latin1'),
};

describe('reading a rebuilt synced message directly', () => {
  const charsets = Object.keys(samples) as Charset[];
  test.each(
    charsets.flatMap((c) => Object.keys(encodings).map((e) => [c, e] as [Charset, keyof typeof encodings])),
  )('a %s body in %s reads as mailparser reads it, alone and beside HTML', async (charset, encoding) => {
    const text = encodeExactly(`${samples[charset]}\nSecond line.\n`, charset);
    const html = encodeExactly(`<p>${samples[charset]}</p>`, charset);
    const encode = encodings[encoding];
    const label = charsetLabel[charset];
    const subject = `Subject: ${encodedWords(samples[charset], charset, 'B')}`;
    const head = headers([...baseHeaders.filter((h) => !h.startsWith('Subject')), subject]);
    await expectSameAsMailparser(rebuild(head, [part('text/plain', label, encoding, encode(text))]));
    await expectSameAsMailparser(
      rebuild(head, [
        part('text/plain', label, encoding, encode(text)),
        part('text/html', label, encoding, encode(html)),
      ]),
    );
  });

  test('header fields read as mailparser reads them: encoded words, raw UTF-8, folding, repeats', async () => {
    const head = headers([
      `From: ${encodedWords('Müller, Jürgen', 'iso-8859-1', 'Q')} <jurgen@xn--mller-kva.example>`,
      'To: Team: anna@example.com, "Bob, Jr." <bob@example.com>;,',
      '  dave@example.com',
      'To: erin@example.com',
      'Cc: =?utf-8?B?0J/RgNC40LLQtdGC?= <ivan@example.ru>',
      `Reply-To: ${encodedWords('Büro', 'utf-8', 'B')} <office@example.de>, desk@example.com`,
      'Subject:',
      `Subject: ${Buffer.from('Grüße – Köln', 'utf8').toString('latin1')}`,
      'Message-ID: no-brackets@example.com',
      'In-Reply-To: <parent@example.com> (comment)',
      'References: <a@example.com>',
      ' <b@example.com>\t<c@example.com>',
      'References: <d@example.com>',
      'Date: not a date',
    ]);
    const raw = rebuild(head, [part('text/plain', 'utf-8', '7bit', 'Hi.\r\n')]);
    await expectSameAsMailparser(raw);
    const m = readDirectMessage(raw);
    expect(m?.subject).toBe('Grüße – Köln');
    expect(m?.references).toEqual([
      '<a@example.com>',
      '<b@example.com>',
      '<c@example.com>',
      '<d@example.com>',
    ]);
  });

  test('a message without the usual header fields reads as mailparser reads it', async () => {
    await expectSameAsMailparser(
      rebuild(headers(['X-Only: this']), [part('text/plain', 'us-ascii', '7bit', 'Body.')]),
    );
    await expectSameAsMailparser(rebuild(headers(baseHeaders), []));
  });

  test.each([
    [
      'base64 with stray characters, padding in the middle and a short tail',
      'base64',
      'SGVs*bG8=\r\nIHdv!cmxk\r\nIQ',
    ],
    ['base64 that is not base64 at all', 'base64', '%%%% ####\r\n'],
    [
      'quoted-printable with bad escapes and a soft break at the end',
      'quoted-printable',
      'a=ZZb=4\r\nc=\r\nd=3',
    ],
    ['bytes that are not UTF-8', '8bit', Buffer.from([0x48, 0xc3, 0x28, 0xff, 0xe2, 0x82, 0x0a])],
  ])('%s reads as mailparser reads it', async (_name, encoding, content) => {
    const body = Buffer.isBuffer(content) ? content : Buffer.from(content, 'latin1');
    await expectSameAsMailparser(
      rebuild(headers(baseHeaders), [part('text/plain', 'utf-8', encoding, body)]),
    );
    await expectSameAsMailparser(
      rebuild(headers(baseHeaders), [
        part('text/plain', 'utf-8', encoding, body),
        part('text/html', 'utf-8', encoding, body),
      ]),
    );
  });

  test.each([
    [
      'Shift_JIS cut inside a character',
      'Shift_JIS',
      Buffer.concat([encodeExactly('会議', 'shift_jis'), Buffer.from([0x89])]),
    ],
    ['GB18030 with a lead byte before a space', 'GB18030', Buffer.from([0xc4, 0xe3, 0x81, 0x20, 0x41, 0x81])],
    ['GB18030 four-byte characters', 'GB18030', Buffer.from([0x95, 0x32, 0x82, 0x36, 0x41])],
    ['ISO-2022-JP that never shifts back', 'ISO-2022-JP', Buffer.from('\x1b$B$3$s\x1b$B', 'latin1')],
    ['a charset nobody knows', 'x-unknown-9', Buffer.from('caf\xe9 ok', 'latin1')],
    ['UTF-7, which is refused', 'utf-7', Buffer.from('+ADw-script+AD4-', 'latin1')],
    ['UTF-16 without a byte order mark', 'utf-16', Buffer.from('h\0i\0', 'latin1')],
    ['UTF-16LE with an unpaired surrogate', 'utf-16le', Buffer.from([0x3d, 0xd8, 0x41, 0x00])],
  ])('%s reads as mailparser reads it', async (_name, charset, content) => {
    await expectSameAsMailparser(
      rebuild(headers(baseHeaders), [part('text/plain', charset, '8bit', content)]),
    );
  });

  test('an empty part adds nothing, as with mailparser, and an empty text falls back to the HTML', async () => {
    await expectSameAsMailparser(
      rebuild(headers(baseHeaders), [
        part('text/plain', 'utf-8', '7bit', ''),
        part('text/html', 'utf-8', '7bit', '<p>Only <b>this</b></p>'),
      ]),
    );
    await expectSameAsMailparser(
      rebuild(headers(baseHeaders), [
        part('text/plain', 'utf-8', '7bit', 'text'),
        part('text/html', 'utf-8', '7bit', ''),
      ]),
    );
  });

  test('an HTML-only message gets the text mailparser makes of it', async () => {
    const raw = rebuild(headers(baseHeaders), [
      part(
        'text/html',
        'utf-8',
        '7bit',
        '<p>Hi <a href="https://x.example">there</a></p><ul><li>one</li></ul>',
      ),
    ]);
    await expectSameAsMailparser(raw);
    expect(readDirectMessage(raw)?.text).toContain('there [https://x.example]');
  });

  test.each([
    ['a charset that is not a plain token', [part('text/plain', 'iso-8859-1 (latin)', '8bit', 'caf\xe9')]],
    ['a transfer encoding that is not a plain token', [part('text/plain', 'utf-8', 'base 64', 'SGk=')]],
    [
      'a part that ends in a carriage return',
      [part('text/plain', 'utf-8', '7bit', 'a\r'), part('text/html', 'utf-8', '7bit', 'b')],
    ],
  ])('%s is left to mailparser, with the same result', async (_name, parts) => {
    const raw = rebuild(headers(baseHeaders), parts);
    expect(readDirect(raw, options)).toBeNull();
    expect(await parseMessage(raw, { rebuilt: true })).toEqual(await parseWithMailparser(raw));
  });

  test('a header block that mailsplit would end early is left to mailparser', async () => {
    // rebuild() itself never writes one: this is what it would look like.
    const raw = Buffer.from(
      'Subject: a\r\nX-A: b\n\nX-B: c\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: 7bit\r\n\r\nBody.',
      'latin1',
    );
    expect(readDirect(raw, options)).toBeNull();
    expect(await parseMessage(raw, { rebuilt: true })).toEqual(await parseWithMailparser(raw));
  });

  test('a second Content-Type before the one rebuild() wrote is left to mailparser, which follows it', async () => {
    // rebuild() drops these fields from the fetched header block: this is what one left in would look like.
    const raw = Buffer.from(
      'Subject: a\r\nContent-Type: text/html\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: 7bit\r\n\r\n<p>Body.</p>',
      'latin1',
    );
    expect(readDirect(raw, options)).toBeNull();
    expect(await parseMessage(raw, { rebuilt: true })).toEqual(await parseWithMailparser(raw));
  });

  test('a message that is not a message fails as before, and its neighbours are read', async () => {
    const pool = createParsePool(1, { readHere: readDirectMessage });
    try {
      const good = (i: number) =>
        rebuild(headers([`Subject: s${i}`, `Message-ID: <${i}@x>`]), [
          part('text/plain', 'utf-8', '7bit', `b${i}`),
        ]);
      const results = await Promise.allSettled([
        pool.parse(good(1), { rebuilt: true }),
        pool.parse(Buffer.from('\r\n\r\nno headers'), { rebuilt: true }),
        pool.parse(good(2), { rebuilt: true }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(results[1]).toMatchObject({ reason: { message: 'The file does not start with mail headers.' } });
      expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.subject] : []))).toEqual([
        's1',
        's2',
      ]);
    } finally {
      await pool.close();
    }
  });
});

describe('reading mail as it arrives directly', () => {
  const lf = (lines: string[]) => Buffer.from(lines.join('\n'), 'utf8');
  const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'utf8');
  const head = [...baseHeaders, 'MIME-Version: 1.0'];
  // A multipart/mixed of a text part and then the part given.
  const mixedAfterText = (part: string[]) =>
    lf([
      ...head,
      'Content-Type: multipart/mixed; boundary=m',
      '',
      '--m',
      'Content-Type: text/plain',
      '',
      'x',
      '--m',
      ...part,
      '--m--',
    ]);
  const alternative = (boundary: string, eol: (l: string[]) => Buffer, extra: string[] = []) =>
    eol([
      ...head,
      `Content-Type: multipart/alternative;\t boundary="${boundary}"`,
      '',
      'This is a multi-part message in MIME format.',
      `--${boundary}`,
      'Content-Type: text/plain; charset=UTF-8; format=flowed',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Gr=C3=BC=C3=9Fe, see you at the =',
      'meeting.=20',
      'Second line.',
      '',
      `--${boundary}`,
      'Content-Type: text/html; charset="iso-8859-1"',
      'Content-Transfer-Encoding: 8bit',
      '',
      '<p>Hello</p>',
      `--${boundary}--`,
      ...extra,
    ]);

  test.each([
    ['LF line endings, as an mbox holds them', alternative('b1=_x', lf, ['epilogue', '--b1=_x', 'more'])],
    ['CRLF line endings', alternative("'()+_,-./:=?", crlf)],
    ['a single part with LF line endings', lf([...head, 'Content-Type: text/plain', '', 'Hi.', ''])],
    ['no Content-Type at all (text/plain in US-ASCII)', lf([...baseHeaders, '', 'Plain body.', ''])],
    [
      'format=flowed with DelSp',
      crlf([...head, 'Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes', '', 'a ', 'b', '']),
    ],
    [
      'an inline disposition and a comment in the type',
      lf([...head, 'Content-Type: text/plain (body); charset=utf-8', 'Content-Disposition: inline', '', 'x']),
    ],
    [
      'HTML only, with links and a table',
      lf([
        ...head,
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('<table><tr><td>A</td><td><a href="https://x.example/">B</a></td></tr></table>').toString(
          'base64',
        ),
      ]),
    ],
    ['an empty body', crlf([...head, 'Content-Type: text/plain; charset=utf-8', '', ''])],
    [
      'a text and a PDF named in RFC 2231 form, LF',
      lf([
        ...head,
        'Content-Type: multipart/mixed; boundary="m=_1"',
        '',
        'This is a multi-part message in MIME format.',
        '--m=_1',
        'Content-Type: text/plain; charset=ISO-8859-1',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Gr=FC=DFe, the report is attached.',
        '--m=_1',
        'Content-Type: application/pdf; name="=?UTF-8?B?0J7RgtGH0ZHRgi5wZGY=?="',
        'Content-Disposition: attachment;',
        " filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.pdf",
        'Content-Transfer-Encoding: base64',
        '',
        ...base64Body('%PDF-1.4\n% a test attachment for parse-direct.test.ts, not a real file\n'),
        '--m=_1--',
        '',
      ]),
    ],
    [
      'alternatives and a picture named in an encoded word, without a disposition, CRLF',
      crlf([
        ...head,
        'Content-Type: multipart/mixed; boundary=outer',
        '',
        '--outer',
        'Content-Type: multipart/alternative; boundary=inner',
        '',
        '--inner',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Photo attached.',
        '--inner',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Photo <b>attached</b>.</p>',
        '--inner--',
        '',
        '--outer',
        'Content-Type: image/png; name="=?UTF-8?Q?Bild_M=C3=BCller.png?="',
        'Content-Transfer-Encoding: base64',
        '',
        ...base64Body('PNG test picture for parse-direct.test.ts'),
        '--outer--',
      ]),
    ],
    [
      'HTML, an invitation kept whole, an octet-stream named as a PDF and a text file attached',
      lf([
        ...head,
        'Content-Type: multipart/mixed; boundary=m',
        '',
        '--m',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Agenda <a href="https://x.example/">here</a>.</p>',
        '--m',
        'Content-Type: text/calendar; method=REQUEST; name="invite.ics"',
        'Content-Transfer-Encoding: 7bit',
        '',
        'BEGIN:VCALENDAR',
        'END:VCALENDAR',
        '--m',
        'Content-Type: application/octet-stream; name=agenda.pdf',
        'Content-Disposition: attachment; filename=agenda.pdf',
        'Content-Transfer-Encoding: base64',
        '',
        ...base64Body('%PDF-1.4\n'),
        '--m',
        'Content-Type: text/plain; charset=utf-8; name=notes.txt',
        'Content-Disposition: attachment; filename="notes.txt"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'caf=C3=A9 notes',
        '--m--',
      ]),
    ],
  ])('%s reads as mailparser reads it', async (_name, raw) => {
    await expectSameAsMailparser(raw);
  });

  // An mbox keeps each message's state in its headers (mail-flags.ts): whichever reader takes a message, the import
  // gets the same from it.
  test('Status, X-Status and X-Mozilla-Status are read the same by both readers', async () => {
    const plain = lf([...head, 'Status: RO', 'X-Status: AF', 'Content-Type: text/plain', '', 'Hi.', '']);
    await expectSameAsMailparser(plain);
    expect(readDirectMessage(plain)?.statusFlags).toEqual({ seen: true, flagged: true, trashed: false });
    // A layout the direct reader leaves to mailparser.
    const related = lf([
      ...head,
      'X-Mozilla-Status: 0009',
      'Content-Type: multipart/related; boundary=r',
      '',
      '--r',
      'Content-Type: text/html',
      '',
      '<p>x</p>',
      '--r--',
      '',
    ]);
    expect(readDirectMessage(related)).toBeNull();
    expect((await parseMessage(related)).statusFlags).toEqual({ seen: true, flagged: false, trashed: true });
    // Without any of them there is nothing to say: the import leaves such a message unread.
    expect(readDirectMessage(lf([...head, 'Content-Type: text/plain', '', 'Hi.', '']))).not.toHaveProperty(
      'statusFlags',
    );
  });

  test('a sender and a part type read before read the same again, and a changed one is read anew', async () => {
    // The direct reader keeps what it read of a From value and of a part's type lines (parse-direct.ts).
    const one = (from: string, type: string) =>
      crlf([
        `From: ${from}`,
        'To: Bob <bob@example.com>',
        'Subject: s',
        `Content-Type: ${type}`,
        '',
        '<p>Hi</p>',
        '',
      ]);
    const plain = one('Anna <anna@example.com>', 'text/plain; charset=utf-8');
    const html = one('Anna <anna@example.com>', 'text/html; charset=utf-8');
    const renamed = one('"Anna M." <anna@example.com>', 'text/plain; charset=utf-8');
    for (const raw of [plain, html, renamed, plain, html, renamed]) await expectSameAsMailparser(raw);
    const [a, b, c] = [plain, html, renamed].map((raw) => readDirectMessage(raw));
    expect([a?.html, b?.html]).toEqual([null, '<p>Hi</p>\n']);
    expect([a?.from.name, c?.from.name]).toEqual(['Anna', 'Anna M.']);
  });

  test('format=flowed is joined and the HTML alternative kept, as mailparser does', () => {
    const m = readDirectMessage(alternative('b1=_x', lf));
    expect(m?.text).toBe('Grüße, see you at the meeting. Second line.');
    expect(m?.html).toBe('<p>Hello</p>');
  });

  test.each([
    ['an attachment', lf([...head, 'Content-Type: text/plain', 'Content-Disposition: attachment', '', 'x'])],
    [
      'multipart/mixed with a second text part',
      mixedAfterText(['Content-Type: text/plain; charset=utf-8', 'Content-Disposition: inline', '', 'y']),
    ],
    [
      'a forwarded message in multipart/mixed',
      mixedAfterText(['Content-Type: message/rfc822', '', 'Subject: inner', '', 'inner body']),
    ],
    [
      'an octet-stream attachment whose name says it is text',
      mixedAfterText([
        'Content-Type: application/octet-stream; name=notes.txt',
        'Content-Transfer-Encoding: base64',
        '',
        'bm90ZXM=',
      ]),
    ],
    [
      'a comment in the transfer encoding of an attachment',
      mixedAfterText([
        'Content-Type: application/pdf; name=a.pdf',
        'Content-Transfer-Encoding: base64 (binary)',
        '',
        ...base64Body('%PDF-1.4\n'),
      ]),
    ],
    [
      'a multipart inside the alternative',
      lf([
        ...head,
        'Content-Type: multipart/alternative; boundary=a',
        '',
        '--a',
        'Content-Type: text/plain',
        '',
        'x',
        '--a',
        'Content-Type: multipart/related; boundary=r',
        '',
        '--r',
        'Content-Type: text/html',
        '',
        '<p>x</p>',
        '--r--',
        '--a--',
      ]),
    ],
    [
      'a delimiter line with trailing spaces',
      lf([
        ...head,
        'Content-Type: multipart/alternative; boundary=a',
        '',
        '--a  ',
        'Content-Type: text/plain',
        '',
        'x',
        '--a--',
      ]),
    ],
    [
      'a part without a Content-Type',
      lf([
        ...head,
        'Content-Type: multipart/alternative; boundary=a',
        '',
        '--a',
        'X-Other: 1',
        '',
        'x',
        '--a--',
      ]),
    ],
    [
      'no closing delimiter',
      lf([
        ...head,
        'Content-Type: multipart/alternative; boundary=a',
        '',
        '--a',
        'Content-Type: text/plain',
        '',
        'x',
      ]),
    ],
    [
      'two Content-Transfer-Encoding fields',
      lf([...head, 'Content-Transfer-Encoding: base64', 'Content-Transfer-Encoding: 7bit', '', 'eA==']),
    ],
  ])('%s is left to mailparser, with the same result', async (_name, raw) => {
    expect(readDirect(raw, options)).toBeNull();
    expect(await parseMessage(raw)).toEqual(await parseWithMailparser(raw));
  });
});

describe('reading the benchmark corpora directly', () => {
  test.each([
    ['everyday mail', true, 0.99],
    ['the mixed corpus, a sixth with attachments', false, 0.99],
  ])(
    '%s: every message read directly reads as mailparser reads it',
    async (_name, small, share) => {
      const summary = generateMailbox({ count: 600, out: join(tempDir(), 'sample.mbox'), small });
      let read = 0;
      for await (const m of splitMbox(createReadStream(summary.out))) {
        const direct = readDirectMessage(m.raw);
        if (!direct) continue;
        read++;
        expect(direct).toEqual(await parseWithMailparser(m.raw));
      }
      expect(read).toBeGreaterThan(summary.messages * share);
    },
    60_000,
  );
});
