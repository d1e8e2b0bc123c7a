import iconv from 'iconv-lite';
import { describe, expect, test } from 'vitest';
import { looksLikeMessage, parseMessage } from './parse.ts';
import { ParseError } from './parse-bounds.ts';

function message(headers: string[], body: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'utf8'), Buffer.from(body)]);
}

const base = ['From: Zoë <zoe@example.com>', 'To: a@example.com', 'Date: Sun, 29 Nov 2026 10:00:00 +0000'];

// Text in each charset real mail uses, and the exact string it must decode to.
const charsets: [string, string][] = [
  ['windows-1252', '“Quoted” – costs 5 € … ok'],
  ['iso-8859-1', 'Grüße aus Köln, señor'],
  ['iso-8859-2', 'Zażółć gęślą jaźń'],
  ['koi8-r', 'Привет, как дела?'],
  ['shift_jis', '会議は明日の十時です'],
  ['gb18030', '会议改到明天上午十点'],
];

describe('parseMessage decodes real charsets', () => {
  test.each(charsets)('decodes a %s body and subject', async (charset, text) => {
    const subject = `=?${charset}?B?${iconv.encode(text, charset).toString('base64')}?=`;
    const raw = message(
      [
        ...base,
        `Subject: ${subject}`,
        `Content-Type: text/plain; charset=${charset}`,
        'Content-Transfer-Encoding: 8bit',
      ],
      iconv.encode(text, charset),
    );
    const m = await parseMessage(raw);
    expect(m.subject).toBe(text);
    expect(m.text.trim()).toBe(text);
  });

  test('decodes an iso-2022-jp body', async () => {
    // 日本語 in ISO-2022-JP: ESC $ B, the JIS X 0208 bytes, ESC ( B.
    const body = Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x38, 0x6c, 0x1b, 0x28, 0x42]);
    const raw = message([...base, 'Subject: jp', 'Content-Type: text/plain; charset=iso-2022-jp'], body);
    expect((await parseMessage(raw)).text.trim()).toBe('日本語');
  });

  test('keeps the readable part of utf-8 with a broken sequence', async () => {
    const body = Buffer.concat([Buffer.from('Café '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' fin')]);
    const raw = message([...base, 'Subject: broken', 'Content-Type: text/plain; charset=utf-8'], body);
    const text = (await parseMessage(raw)).text;
    expect(text).toContain('Café');
    expect(text).toContain('fin');
  });
});

describe('parseMessage', () => {
  test('reads headers, threading ids, html and attachment metadata but not attachment bytes', async () => {
    const raw = message(
      [
        ...base,
        'Subject: Re: Invoice',
        'Cc: "Bob B" <bob@example.com>',
        'Message-ID: <m2@example.com>',
        'In-Reply-To: <m1@example.com>',
        'References: <m0@example.com> <m1@example.com>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
      ],
      [
        '--b',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Hello <b>there</b></p>',
        '--b',
        'Content-Type: application/pdf',
        'Content-Disposition: attachment; filename="invoice.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF-1.4 fake').toString('base64'),
        '--b--',
        '',
      ].join('\r\n'),
    );
    const m = await parseMessage(raw);
    expect(m).toMatchObject({
      messageId: '<m2@example.com>',
      inReplyTo: '<m1@example.com>',
      references: ['<m0@example.com>', '<m1@example.com>'],
      subject: 'Re: Invoice',
      from: { name: 'Zoë', address: 'zoe@example.com' },
      cc: [{ name: 'Bob B', address: 'bob@example.com' }],
      date: Date.parse('2026-11-29T10:00:00Z'),
      attachments: [{ name: 'invoice.pdf', contentType: 'application/pdf', size: 13 }],
    });
    expect(m.html).toContain('<b>there</b>');
    expect(m.text).toContain('Hello there');
    expect(JSON.stringify(m)).not.toContain('PDF-1.4');
    expect(m.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('reads the Reply-To a reply goes to, every address of it, and none when there is none', async () => {
    const raw = message(
      [...base, 'Reply-To: Desk <desk@example.com>, "Ops, Team" <ops@example.com>', 'Subject: x'],
      'Hi.',
    );
    expect((await parseMessage(raw)).replyTo).toEqual([
      { name: 'Desk', address: 'desk@example.com' },
      { name: 'Ops, Team', address: 'ops@example.com' },
    ]);
    expect((await parseMessage(message([...base, 'Subject: x'], 'Hi.'))).replyTo).toEqual([]);
  });

  test('rejects input that is not a message with a reason', async () => {
    await expect(parseMessage(Buffer.alloc(0))).rejects.toThrow(ParseError);
    await expect(parseMessage(Buffer.from('%PDF-1.4\n...'))).rejects.toThrow(
      'does not start with mail headers',
    );
  });

  test('strips NUL bytes and caps a huge text body', async () => {
    const big = `a\u0000b ${'x'.repeat(3 * 1024 * 1024)}`;
    const m = await parseMessage(message([...base, 'Subject: big'], big));
    expect(m.text).not.toContain('\u0000');
    expect(m.text.length).toBeLessThan(2.1 * 1024 * 1024);
    expect(m.text.endsWith('[… truncated by Skimmer]')).toBe(true);
  });

  test('a missing or invalid date becomes 0, not NaN', async () => {
    const m = await parseMessage(message(['From: a@example.com', 'Subject: x', 'Date: not a date'], 'hi'));
    expect(m.date).toBe(0);
  });

  test.each([
    ['From: a@example.com\r\n', true],
    ['Subject: x\n', true],
    ['Hello there, no headers', false],
    ['%PDF-1.4', false],
  ])('looksLikeMessage(%j) is %s', (head, expected) => {
    expect(looksLikeMessage(Buffer.from(head))).toBe(expected);
  });
});
