// The `attachment:*` channels (issue 29 §1) on a real app and a real SQLite file: the list, and the bytes read a
// bounded range at a time from the imported file, reassembled identical to the original part; what cannot be
// read is a typed failure with its sentence.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { attachmentReadBytes } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { tempDir } from './support/temp.ts';

const files = tempDir();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const big = randomBytes(2 * attachmentReadBytes + 12_345);
let app: App;

const eml = [
  'From: Lee <lee@example.org>',
  'To: Test <test@example.com>',
  'Subject: Two files',
  'Date: Sun, 29 Nov 2026 11:00:00 +0000',
  'Message-ID: <two@example.org>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain',
  '',
  'Two files.',
  '--b1',
  'Content-Type: application/octet-stream; name="big.bin"',
  'Content-Disposition: attachment; filename="big.bin"',
  'Content-Transfer-Encoding: base64',
  '',
  big.toString('base64').replace(/.{76}/g, '$&\r\n'),
  '--b1',
  'Content-Type: text/plain; name="notes.txt"',
  'Content-Disposition: attachment; filename="notes.txt"',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'hello, world',
  '',
  '--b1--',
  '',
].join('\r\n');

const idOf = () =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get('<two@example.org>') as number;

beforeAll(async () => {
  writeFileSync(join(files, 'two.eml'), eml);
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  await app.importFiles([files], () => {}).done;
}, 30_000);
afterAll(() => app?.close());

describe('attachment:list and attachment:read', () => {
  test('lists the attachments with their places in the list', async () => {
    expect(await call(app, 'attachment:list', { message: idOf() })).toEqual([
      { index: 0, name: 'big.bin', contentType: 'application/octet-stream', size: expect.any(Number) },
      { index: 1, name: 'notes.txt', contentType: 'text/plain', size: expect.any(Number) },
    ]);
  });

  test('a large attachment read range by range is the original part, byte for byte', async () => {
    const chunks: Buffer[] = [];
    let offset = 0;
    let total = Number.POSITIVE_INFINITY;
    while (offset < total) {
      const r = await call(app, 'attachment:read', {
        message: idOf(),
        index: 0,
        offset,
        length: attachmentReadBytes,
      });
      expect(r.offset).toBe(offset);
      const data = Buffer.from(r.data, 'base64');
      expect(data.length).toBeLessThanOrEqual(attachmentReadBytes);
      chunks.push(data);
      total = r.total;
      offset += data.length;
    }
    expect(chunks.length).toBe(3);
    expect(sha(Buffer.concat(chunks))).toBe(sha(big));
  });

  test('a decoded text part is its decoded bytes, and a range past the end is empty', async () => {
    const small = (await simpleParser(eml)).attachments[1]?.content as Buffer;
    expect(small.toString()).toContain('hello, world');
    const r = await call(app, 'attachment:read', { message: idOf(), index: 1, offset: 0, length: 1024 });
    expect(Buffer.from(r.data, 'base64').equals(small)).toBe(true);
    expect(r).toMatchObject({ name: 'notes.txt', contentType: 'text/plain', total: small.length });
    const past = await call(app, 'attachment:read', { message: idOf(), index: 1, offset: 999, length: 10 });
    expect(past).toMatchObject({ data: '', offset: small.length });
  });

  test('no such message or attachment is not_found, with its sentence', async () => {
    expect(await callRaw(app, 'attachment:list', { message: 99_999 })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'There is no message with id 99999.' },
    });
    expect(
      await callRaw(app, 'attachment:read', { message: idOf(), index: 5, offset: 0, length: 10 }),
    ).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        message: `Message ${idOf()} has no attachment 6: it has 2 (numbered 1 to 2).`,
      },
    });
  });

  test('a range larger than the bound is refused before anything is read', async () => {
    const r = await callRaw(app, 'attachment:read', {
      message: idOf(),
      index: 0,
      offset: 0,
      length: attachmentReadBytes + 1,
    });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  test('a file changed since the import is an io failure naming it', async () => {
    const path = join(files, 'two.eml');
    const before = readFileSync(path);
    writeFileSync(path, before.toString('latin1').replace('Two files.', 'Two filez.'), 'latin1');
    try {
      // index 1 may be cached from an earlier test; a fresh app reads the file again.
      const fresh = createApp({ dataDir: app.dataDir, mode: 'browser' });
      try {
        expect(
          await callRaw(fresh, 'attachment:read', { message: idOf(), index: 0, offset: 0, length: 10 }),
        ).toEqual({
          ok: false,
          error: {
            code: 'io',
            message: `The file ${path} this message was imported from has changed since.`,
          },
        });
      } finally {
        await fresh.close();
      }
    } finally {
      writeFileSync(path, before);
    }
  });
});
