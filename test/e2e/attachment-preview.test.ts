// The reader's attachment preview and Save in browser mode (issue 29 §1), end to end: a real Dovecot on loopback,
// the app's background sync, the real server and bridge, the built renderer in Debian's Chromium. A PDF of a synced
// message is previewed (page 1 drawn by pdfjs: the canvas has ink) and paged, then saved byte for byte; an image is
// previewed from its bytes; an HTML attachment is shown as text; a 20 MB attachment is saved through the server's
// download route without the page reading a byte of it over the bridge; hostile names are saved under safe ones.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { type MailFile, mailWithFiles } from '../support/attachment-mail.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { makePdf } from '../support/documents.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { tempDir } from '../support/temp.ts';
import { tinyPng } from '../support/tiny-png.ts';
import { waitUntil } from '../support/wait-until.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const poll = { timeout: 60_000, interval: 250 };
const big = randomBytes(20 * 1024 * 1024);
const png = tinyPng(40, 24, [200, 40, 40]);
const hostile = ['../../etc/passwd', 'CON.txt', '.bashrc', 'a\u202Etxt.exe'];
let pdf: Buffer;

let server: Dovecot;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
// Every attachment:read the page asks for, counted where the bridge answers.
const reads: { message: number; index: number }[] = [];

const message = (id: string, subject: string, files: MailFile[]) =>
  mailWithFiles(`${id}@example.org`, subject, files);

// An HTML mail whose image is its own part, named by Content-ID (multipart/related).
const newsletter = [
  'From: Lee Park <lee@example.org>',
  'To: Test <test@example.com>',
  'Subject: Newsletter with a chart',
  'Date: Mon, 30 Nov 2026 12:00:00 +0000',
  'Message-ID: <news@example.org>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/related; boundary="r1"',
  '',
  '--r1',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>This month in one chart:</p><img src="cid:chart.1@example.org" alt="the chart">',
  '--r1',
  'Content-Type: image/png; name="chart.png"',
  'Content-ID: <chart.1@example.org>',
  'Content-Disposition: inline; filename="chart.png"',
  'Content-Transfer-Encoding: base64',
  '',
  png.toString('base64'),
  '--r1--',
  '',
].join('\r\n');

const idOf = (id: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${id}@example.org>`) as number;

beforeAll(async () => {
  pdf = await makePdf(['Quarterly report page one', 'Page two of the report', 'The last page']);
  server = await startDovecot();
  await server.append('INBOX', [
    message('report', 'Quarterly report', [
      { name: 'report.pdf', type: 'application/pdf', body: pdf },
      { name: 'chart.png', type: 'image/png', body: png },
      { name: 'page.html', type: 'text/html', body: Buffer.from('<script>alert(1)</script><b>bold</b>') },
    ]),
    message('big', 'Big file', [{ name: 'archive.bin', type: 'application/octet-stream', body: big }]),
    message(
      'hostile',
      'Odd names',
      hostile.map((name, k) => ({ name, type: 'application/octet-stream', body: Buffer.from(`file ${k}`) })),
    ),
  ]);
  await server.append('INBOX', [newsletter]);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const read = app.handlers['attachment:read'];
  Object.assign(app.handlers, {
    'attachment:read': (r: Parameters<typeof read>[0]) => {
      reads.push({ message: r.message, index: r.index });
      return read(r);
    },
  });
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
    smtp: { host: '127.0.0.1', port: 1, tls: 'none' },
  });
  const count = app.db.prepare('SELECT count(*) FROM messages').pluck();
  await waitUntil(() => count.get() === 4, poll, 'the account did not sync');
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 860 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await server?.stop();
});

async function openThread(subject: string) {
  await page.locator('[data-testid="thread-row"]', { hasText: subject }).click();
  await page.getByTestId('message').first().waitFor();
}

async function saved(click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { download, bytes: readFileSync(await download.path()) };
}

describe('the attachment preview', () => {
  test('draws page 1 of a synced PDF, pages on, and saves it byte for byte', async () => {
    await openThread('Quarterly report');
    await page.getByRole('button', { name: 'Preview report.pdf' }).click();
    const preview = page.getByTestId('attachment-preview');
    await expect.poll(() => preview.getByTestId('pdf-canvas').getAttribute('data-drawn'), poll).toBe('1');
    expect(await preview.getByTestId('pdf-page').textContent()).toBe('Page 1 of 3');
    // Ink on the page: pixels that are not the white of the paper.
    const inked = () =>
      preview.getByTestId('pdf-canvas').evaluate((c: HTMLCanvasElement) => {
        const data =
          c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) dark++;
        return dark;
      });
    expect(await inked()).toBeGreaterThan(50);
    await preview.getByTestId('pdf-next').click();
    await expect.poll(() => preview.getByTestId('pdf-canvas').getAttribute('data-drawn')).toBe('2');
    expect(await preview.getByTestId('pdf-page').textContent()).toBe('Page 2 of 3');
    const { download, bytes } = await saved(() => preview.getByTestId('attachment-preview-save').click());
    expect(download.suggestedFilename()).toBe('report.pdf');
    expect(new URL(download.url()).pathname).toBe('/bridge/attachment');
    expect(sha(bytes)).toBe(sha(pdf));
    await page.keyboard.press('Escape');
    await expect.poll(() => preview.count()).toBe(0);
  });

  test('shows an image from its bytes, and HTML as text', async () => {
    await page.getByRole('button', { name: 'Preview chart.png' }).click();
    const image = page.getByTestId('attachment-preview-image');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), poll).toBe(40);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Preview page.html' }).click();
    const text = page.getByTestId('attachment-preview-text');
    await text.waitFor();
    expect(await text.textContent()).toBe('<script>alert(1)</script><b>bold</b>');
    expect(await page.getByTestId('attachment-preview').locator('b, script').count()).toBe(0);
    await page.getByTestId('attachment-preview-close').click();
    expect(foreign).toEqual([]);
  });

  test('saves a 20 MB attachment through the download route, never read by the page', async () => {
    await openThread('Big file');
    const before = reads.length;
    const { download, bytes } = await saved(() =>
      page.getByRole('button', { name: 'Save archive.bin' }).click(),
    );
    expect(new URL(download.url()).pathname).toBe('/bridge/attachment');
    expect(bytes.length).toBe(big.length);
    expect(sha(bytes)).toBe(sha(big));
    expect(reads.slice(before).filter((r) => r.message === idOf('big'))).toEqual([]);
  });

  test('saves hostile names under safe ones', async () => {
    await openThread('Odd names');
    const names: string[] = [];
    for (const [k] of hostile.entries()) {
      const { download, bytes } = await saved(() =>
        page.getByTestId('attachment').nth(k).getByTestId('attachment-save').click(),
      );
      expect(bytes.toString()).toBe(`file ${k}`);
      names.push(download.suggestedFilename());
    }
    expect(names).toEqual(['_.._etc_passwd', '_CON.txt', 'bashrc', 'atxt.exe']);
    // Save all, for two or more: one zip.
    const { download } = await saved(() => page.getByTestId('attachment-save-all').click());
    expect(download.suggestedFilename()).toBe(`message-${idOf('hostile')}-attachments.zip`);
  });

  test("shows an HTML mail's own cid: image once images are loaded, from the part's bytes", async () => {
    await openThread('Newsletter with a chart');
    const frame = page.frameLocator('[data-testid="mail-frame"]').first();
    await frame.locator('p', { hasText: 'This month in one chart' }).waitFor();
    expect(await frame.locator('img').getAttribute('src')).toBeNull();
    await page.getByTestId('load-images').click();
    const image = frame.locator('img[alt="the chart"]');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), poll).toBe(40);
    expect(await image.getAttribute('src')).toMatch(/^blob:http:\/\/127\.0\.0\.1:/);
    expect(foreign).toEqual([]);
  });
});
