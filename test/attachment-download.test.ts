// Browser mode's download route for attachments (issue 29 §1; electron/web/attachment-download.ts) over a real
// loopback socket, a real app and SQLite file and an imported .eml: the bytes are the original part's, the
// session is required as for the bridge's socket, a sender's hostile name becomes a safe Content-Disposition,
// an unknown attachment is a 404 that says so, and Save all is a zip of every part under distinct safe names.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { contentDisposition } from '../electron/web/attachment-download.ts';
import { type Served, serve } from '../electron/web/server.ts';
import { attachmentsZipUrl, attachmentUrl, errorHeader } from '../shared/attachment-urls.ts';
import { mailWithFiles } from './support/attachment-mail.ts';
import { tempDir } from './support/temp.ts';
import { sessionCookie } from './support/web-bridge.ts';

const root = join(tempDir(), 'renderer');
mkdirSync(root, { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Skimmer</title>');
const files = tempDir();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const big = randomBytes(3 * 1024 * 1024 + 17);
const hostile = ['../../etc/passwd', 'CON.txt', '.bashrc', 'a\u202Etxt.exe', 'q"uote\r\nX-Evil: 1.txt'];

const eml = mailWithFiles('files@example.org', 'Files', [
  { name: 'big.bin', type: 'application/octet-stream', body: big },
  ...hostile.map((name, k) => ({ name, type: 'application/octet-stream', body: Buffer.from(`file ${k}`) })),
]);

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let message: number;

type Got = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
function fetchFrom(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: served.port,
        path,
        method,
        headers: { host: `127.0.0.1:${served.port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const withSession = async (path: string, method = 'GET') =>
  fetchFrom(path, { cookie: (await sessionCookie(served)) ?? '', 'sec-fetch-site': 'same-origin' }, method);

beforeAll(async () => {
  writeFileSync(join(files, 'files.eml'), eml);
  await app.importFiles([files], () => {}).done;
  message = app.db
    .prepare('SELECT id FROM messages WHERE message_id = ?')
    .pluck()
    .get('<files@example.org>') as number;
  served = await serve(app, { root });
}, 30_000);
afterAll(async () => {
  await served?.close();
  await app.close();
});

describe('GET /bridge/attachment', () => {
  test('answers the original bytes, as a download that is never rendered', async () => {
    const got = await withSession(attachmentUrl(message, 0));
    expect(got.status).toBe(200);
    expect(sha(got.body)).toBe(sha(big));
    expect(got.headers['content-length']).toBe(String(big.length));
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="big.bin"; filename*=UTF-8''big.bin`,
    );
  });

  test('is refused without the session, with a spent or forged cookie, and from another site', async () => {
    expect((await fetchFrom(attachmentUrl(message, 0))).status).toBe(403);
    const forged = `skimmer-${served.port}=${randomBytes(24).toString('base64url')}`;
    const refused = await fetchFrom(attachmentUrl(message, 0), { cookie: forged });
    expect(refused.status).toBe(403);
    expect(refused.body.includes(big.subarray(0, 64))).toBe(false);
    const cross = await fetchFrom(attachmentUrl(message, 0), {
      cookie: (await sessionCookie(served)) ?? '',
      'sec-fetch-site': 'cross-site',
    });
    expect(cross.status).toBe(403);
    // Another Host (DNS rebinding) is refused before anything else.
    const rebound = await fetchFrom(attachmentUrl(message, 0), {
      host: `evil.example:${served.port}`,
      cookie: (await sessionCookie(served)) ?? '',
    });
    expect(rebound.status).toBe(421);
  });

  test('gives hostile names as one safe component, and no header of their own', async () => {
    const names: string[] = [];
    for (const [k] of hostile.entries()) {
      const got = await withSession(attachmentUrl(message, k + 1));
      expect(got.status).toBe(200);
      expect(got.body.toString()).toBe(`file ${k}`);
      expect(got.headers['x-evil']).toBeUndefined();
      const disposition = got.headers['content-disposition'] as string;
      names.push(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(disposition)?.[1] ?? ''));
    }
    expect(names).toEqual(['_.._etc_passwd', '_CON.txt', 'bashrc', 'atxt.exe', 'q_uote X-Evil_ 1.txt']);
    for (const n of names) expect(n).not.toMatch(/[/\\\u202e"]/);
  });

  test('an attachment the message does not have is a 404 that says which there are', async () => {
    const got = await withSession(attachmentUrl(message, 99));
    expect(got.status).toBe(404);
    const sentence = decodeURIComponent(got.headers[errorHeader] as string);
    expect(sentence).toBe(`Message ${message} has no attachment 100: it has 6 (numbered 1 to 6).`);
    expect((await withSession(attachmentUrl(987_654, 0))).status).toBe(404);
    expect((await withSession('/bridge/attachment?message=x&index=0')).status).toBe(400);
  });

  test('HEAD says it will work, with the length, and sends no bytes', async () => {
    const got = await withSession(attachmentUrl(message, 0), 'HEAD');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(big.length));
    expect(got.body.length).toBe(0);
  });
});

describe('GET /bridge/attachments.zip', () => {
  test('is every attachment, byte for byte, under distinct safe names', async () => {
    const got = await withSession(attachmentsZipUrl(message));
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(got.body));
    expect(Object.keys(entries)).toEqual([
      'big.bin',
      '_.._etc_passwd',
      '_CON.txt',
      'bashrc',
      'atxt.exe',
      'q_uote X-Evil_ 1.txt',
    ]);
    expect(sha(entries['big.bin'] as Uint8Array)).toBe(sha(big));
    expect(Buffer.from(entries.bashrc as Uint8Array).toString()).toBe('file 2');
  });

  test('is refused without the session', async () => {
    expect((await fetchFrom(attachmentsZipUrl(message))).status).toBe(403);
  });
});

describe('contentDisposition', () => {
  test('keeps a UTF-8 name in filename* and an ASCII stand-in in filename', () => {
    expect(contentDisposition('Rechnung für März.pdf', 'x')).toBe(
      `attachment; filename="Rechnung f_r M_rz.pdf"; filename*=UTF-8''Rechnung%20f%C3%BCr%20M%C3%A4rz.pdf`,
    );
    expect(contentDisposition("it's (1).txt", 'x')).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});
