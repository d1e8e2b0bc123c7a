import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, test } from 'vitest';
import { projectRoot } from '../../app.ts';
import { isAttachmentPart, stripAttachmentBodies } from './strip-attachments.ts';

const corpus = ['demo', 'hostile'].flatMap((dir) =>
  readdirSync(join(projectRoot, 'fixtures', dir))
    .filter((f) => f.endsWith('.eml'))
    .map((f) => [`${dir}/${f}`, readFileSync(join(projectRoot, 'fixtures', dir, f))] as const),
);

const options = {
  skipImageLinks: true,
  skipTextLinks: true,
  skipTextToHtml: true,
  keepCidLinks: true,
} as const;

describe('stripAttachmentBodies', () => {
  test('cuts the attachment bytes out and estimates their decoded size exactly for base64', async () => {
    const payload = Buffer.alloc(10_001, 7);
    const raw = Buffer.from(
      [
        'From: a@example.com',
        'Subject: files',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'The body stays.',
        '--b',
        'Content-Type: application/zip; name="a.zip"',
        'Content-Transfer-Encoding: base64',
        '',
        payload.toString('base64').replace(/.{76}/g, '$&\r\n'),
        '--b',
        'Content-Type: text/csv',
        'Content-Disposition: attachment; filename="t.csv"',
        '',
        'a,b,c',
        '--b--',
        '',
      ].join('\r\n'),
    );
    const { raw: stripped, sizes } = await stripAttachmentBodies(raw);
    expect(sizes).toEqual([10_001, 5]); // "a,b,c": the line break before a boundary belongs to it
    expect(stripped.length).toBeLessThan(600);
    expect(stripped.toString()).toContain('The body stays.');
    expect(stripped.toString()).not.toContain('a,b,c');
  });

  test.each(corpus)(
    '%s parses to the same text, HTML and attachment list with or without bodies',
    async (_name, raw) => {
      const original = await simpleParser(raw, options).catch(() => null);
      const { raw: stripped, sizes } = await stripAttachmentBodies(raw).catch(() => ({
        raw,
        sizes: [] as number[],
      }));
      const fast = await simpleParser(stripped, options).catch(() => null);
      if (original === null) return expect(fast).toBeNull();
      expect(fast?.subject).toBe(original.subject);
      expect(fast?.text).toBe(original.text);
      expect(fast?.html).toBe(original.html);
      expect(fast?.attachments.map((a) => [a.filename, a.contentType])).toEqual(
        original.attachments.map((a) => [a.filename, a.contentType]),
      );
      const cut = original.attachments.filter((a) =>
        isAttachmentPart(a.contentType, a.contentDisposition ?? ''),
      );
      expect(sizes).toEqual(cut.map((a) => a.size));
    },
  );
});
