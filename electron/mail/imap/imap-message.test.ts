import { describe, expect, test } from 'vitest';
import { parseMessage } from '../import/parse.ts';
import { headersWithoutBody, planParts, rebuild, type Structure } from './imap-message.ts';

const mixed: Structure = {
  type: 'multipart/mixed',
  childNodes: [
    {
      part: '1',
      type: 'multipart/alternative',
      childNodes: [
        {
          part: '1.1',
          type: 'text/plain',
          parameters: { charset: 'iso-8859-1' },
          encoding: 'quoted-printable',
          size: 40,
        },
        { part: '1.2', type: 'text/html', parameters: { charset: 'utf-8' }, encoding: 'base64', size: 80 },
      ],
    },
    {
      part: '2',
      type: 'application/pdf',
      disposition: 'attachment',
      dispositionParameters: { filename: 'invoice.pdf' },
      encoding: 'base64',
      size: 7800,
    },
    {
      part: '3',
      type: 'message/rfc822',
      parameters: { name: 'fwd.eml' },
      size: 500,
      childNodes: [{ part: '3.1', type: 'text/plain', size: 10 }],
    },
  ],
};

describe('planParts', () => {
  test('picks the body text parts and lists the rest as attachments with decoded sizes', () => {
    expect(planParts(mixed)).toEqual({
      text: [
        { part: '1.1', type: 'text/plain', charset: 'iso-8859-1', encoding: 'quoted-printable' },
        { part: '1.2', type: 'text/html', charset: 'utf-8', encoding: 'base64' },
      ],
      attachments: [
        { name: 'invoice.pdf', contentType: 'application/pdf', size: 5700 },
        { name: 'fwd.eml', contentType: 'message/rfc822', size: 500 },
      ],
    });
  });

  test('a message that is not multipart has its body as part 1', () => {
    expect(
      planParts({ type: 'text/plain', parameters: { charset: 'utf-8' }, encoding: '7bit' }).text,
    ).toEqual([{ part: '1', type: 'text/plain', charset: 'utf-8', encoding: '7bit' }]);
  });

  test('a text part sent as an attachment is an attachment', () => {
    const plan = planParts({
      type: 'multipart/mixed',
      childNodes: [
        { part: '1', type: 'text/plain', size: 5 },
        {
          part: '2',
          type: 'text/plain',
          disposition: 'attachment',
          dispositionParameters: { filename: 'notes.txt' },
          size: 9,
        },
      ],
    });
    expect(plan.text.map((t) => t.part)).toEqual(['1']);
    expect(plan.attachments).toEqual([{ name: 'notes.txt', contentType: 'text/plain', size: 9 }]);
  });
});

const headers = Buffer.from(
  [
    'From: =?utf-8?q?Jos=C3=A9?= <jose@example.com>',
    'To: bob@example.com',
    // Raw UTF-8 in a header (RFC 6532): the bytes must come through unchanged.
    'Subject: Café menu',
    'Message-ID: <m1@example.com>',
    'Date: Mon, 30 Nov 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed;',
    '\tboundary="orig"',
    'X-Keep: yes',
    '',
    '',
  ].join('\r\n'),
  'utf8',
);

describe('rebuild', () => {
  test('drops the fields that described the original body, folded lines too', () => {
    const head = headersWithoutBody(headers);
    expect(head).not.toMatch(/boundary|Content-Type|MIME-Version/i);
    expect(head).toContain('X-Keep: yes');
  });

  test('parses back to the same headers and decoded text, the same bytes every time', async () => {
    const parts = [
      {
        part: '1.1',
        type: 'text/plain' as const,
        charset: 'iso-8859-1',
        encoding: 'quoted-printable',
        content: Buffer.from('Caf=E9 at 10?'),
      },
      {
        part: '1.2',
        type: 'text/html' as const,
        charset: 'utf-8',
        encoding: 'base64',
        content: Buffer.from(Buffer.from('<p>Café at 10?</p>').toString('base64')),
      },
    ];
    const raw = rebuild(headers, parts);
    expect(rebuild(headers, parts).equals(raw)).toBe(true);
    const m = await parseMessage(raw);
    expect(m.subject).toBe('Café menu');
    expect(m.from).toEqual({ name: 'José', address: 'jose@example.com' });
    expect(m.messageId).toBe('<m1@example.com>');
    expect(m.text.trim()).toBe('Café at 10?');
    expect(m.html).toContain('<p>Café at 10?</p>');
  });

  test('a message with no text parts still parses, with an empty body', async () => {
    const m = await parseMessage(rebuild(headers, []));
    expect(m.subject).toBe('Café menu');
    expect(m.text).toBe('');
  });
});
