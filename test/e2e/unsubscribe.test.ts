// Unsubscribing from the reader, end to end (issue 29 §3): a real Dovecot and SMTP sink on loopback, an HTTPS
// listener certified by the tests' own CA standing for the list's server, the app with its background sync and
// outbox sender, the built renderer in Debian's Chromium. What it proves: synced mail with List-Unsubscribe shows
// Unsubscribe beside the sender; Cancel on the confirmation sends nothing; confirming a one-click unsubscribe (by
// keyboard) makes the listener receive exactly one POST of `List-Unsubscribe=One-Click` with no cookie and no
// referrer, from the app and never from the page, and the reader then says "Unsubscribed on DATE", for another
// message of that sender too; an email-only list's message reaches the SMTP sink after the undo window with the
// URI's To and Subject; a list server's 500 shows its sentence naming the host; an http-only link asks through
// the link confirmation and, cancelled, records nothing, confirmed, opens only that page.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { startHttpsServer, type WebServer } from '../support/https-server.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { tempDir } from '../support/temp.ts';
import { startTestCa } from '../support/test-ca.ts';
import { waitUntil } from '../support/wait-until.ts';

const fixtures = join(projectRoot, 'fixtures', 'unsubscribe');
const shots = join(projectRoot, 'test-results', 'screenshots');
const poll = { timeout: 30_000, interval: 250 };
const synced = ['one-click', 'one-click-again', 'mailto', 'http', 'broken'];

let server: Dovecot;
let sink: SmtpSink;
let web: WebServer;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  const ca = startTestCa();
  web = await startHttpsServer(ca, ['localhost']);
  web.serve('127.0.0.1', '/u/broken', { status: 500, body: 'oops' });
  web.serve('127.0.0.1', '/u/one-click', {
    status: 200,
    body: 'Done.',
    headers: { 'content-type': 'text/plain' },
  });
  const host = `127.0.0.1:${web.port}`;
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append(
    'INBOX',
    synced.map((name) => readFileSync(join(fixtures, `${name}.eml`), 'utf8').replaceAll('{{host}}', host)),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true, extraCa: ca.cert });
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  const count = app.db
    .prepare("SELECT count(*) FROM messages WHERE message_id LIKE '%@unsubscribe.test>'")
    .pluck();
  await waitUntil(() => count.get() === synced.length, poll, 'the account did not sync');
  // The demo mailbox's newsletters, for the screenshots: their lists' hosts read as a person would meet them.
  await importDemo(app);
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await sink?.close();
  await server?.stop();
});

async function openThread(p: Page, subject: string): Promise<void> {
  await p
    .getByTestId('thread-row')
    .filter({ has: p.getByText(subject, { exact: true }) })
    .click();
  await p.getByTestId('message').first().waitFor();
}
const posts = () => web.received.filter((r) => r.path === '/u/one-click');
const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;

describe('Unsubscribe from the reader', () => {
  // docs/screenshots/unsubscribe-*.png are copies of these.
  test('the confirmation names the host, in both themes at 1280 and 900 px; Cancel does nothing', async () => {
    mkdirSync(shots, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [1280, 900]) {
        const opened = await openApp(app, { foreign, colorScheme, viewport: { width, height: 700 } });
        try {
          // The demo's folder is long and its list virtualized: the newsletter is found by searching.
          await opened.page.getByTestId('search-input').fill('subject:"Byte Digest"');
          await opened.page.getByTestId('search-input').press('Enter');
          await opened.page.getByTestId('search-hit').filter({ hasText: 'Byte Digest' }).first().click();
          await opened.page.getByTestId('message').first().waitFor();
          await opened.page.getByTestId('message-unsubscribe').click();
          const where = opened.page.getByTestId('unsubscribe-confirm-where');
          expect(await where.textContent()).toBe('Unsubscribe by sending a request to news.example.net?');
          await opened.page.screenshot({
            path: join(shots, `unsubscribe-confirm-${colorScheme}-${width}.png`),
          });
          await opened.page.getByTestId('unsubscribe-confirm-cancel').click();
          await opened.page.getByTestId('unsubscribe-confirm').waitFor({ state: 'detached' });
        } finally {
          await opened.browser.close();
          await opened.served.close();
        }
      }
    const demo = app.db
      .prepare("SELECT id FROM messages WHERE from_addr = 'digest@news.example.net'")
      .pluck()
      .get() as number;
    expect((await call(app, 'unsubscribe:options', { message: demo })).unsubscribed).toBeNull();
    expect(posts()).toEqual([]);
    expect(foreign).toEqual([]);
  }, 120_000);

  test('one click, confirmed by keyboard: one clean POST reaches the list, and the sender says so', async () => {
    await openThread(page, 'The daily digest');
    const button = page.getByTestId('message-unsubscribe');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('unsubscribe-confirm').waitFor();
    // Cancel has the focus first; the next Tab is the send.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'unsubscribe-confirm-send',
    );
    await page.keyboard.press('Enter');
    const done = page.getByTestId('message-unsubscribed');
    await done.waitFor();
    expect(await done.textContent()).toMatch(/^Unsubscribed on .*2026/);
    expect(await page.getByTestId('message-unsubscribe').count()).toBe(0);

    expect(posts().length).toBe(1);
    const [post] = posts();
    expect(post?.method).toBe('POST');
    expect(post?.body).toBe('List-Unsubscribe=One-Click');
    expect(post?.headers.cookie).toBeUndefined();
    expect(post?.headers.referer).toBeUndefined();
    expect(post?.headers.origin).toBeUndefined();
    // Made by the app, not the page: the page never asked for any address but its own.
    expect(foreign).toEqual([]);

    // Another message of that sender says so too.
    await openThread(page, 'The daily digest, again');
    await page.getByTestId('message-unsubscribed').waitFor();
    expect(await page.getByTestId('message-unsubscribe').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'unsubscribe-done-light-1280.png') });
    const dark = await openApp(app, { foreign, colorScheme: 'dark', viewport: { width: 900, height: 700 } });
    try {
      await openThread(dark.page, 'The daily digest');
      await dark.page.getByTestId('message-unsubscribed').waitFor();
      await dark.page.screenshot({ path: join(shots, 'unsubscribe-done-dark-900.png') });
    } finally {
      await dark.browser.close();
      await dark.served.close();
    }
  }, 60_000);

  test('by email: the message waits in the outbox with Undo, then reaches the SMTP server', async () => {
    await openThread(page, 'The weekly letter');
    await page.getByTestId('message-unsubscribe').click();
    expect(await page.getByTestId('unsubscribe-confirm-where').textContent()).toBe(
      'Unsubscribe by sending an email to leave@weekly.example?',
    );
    await page.getByTestId('unsubscribe-confirm-send').click();
    await page.getByTestId('message-unsubscribed').waitFor();
    // The outbox bar offers Undo while it waits.
    await page.getByTestId('outbox-undo').first().waitFor();
    await page.screenshot({ path: join(shots, 'unsubscribe-mailto-light-1280.png') });

    const [got] = await sink.waitFor(1, 40_000);
    expect(got?.to).toEqual(['leave@weekly.example']);
    const parsed = await simpleParser(got?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe('Unsubscribe me');
    expect(parsed.from?.value.map((a) => a.address)).toEqual(['test@example.com']);
  }, 60_000);

  test('a page to open asks first, naming its host; cancelled, nothing is recorded', async () => {
    await openThread(page, 'Old-fashioned');
    await page.getByTestId('message-unsubscribe').click();
    const dialog = page.getByTestId('link-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe(
      'Open unsub.old.example in your browser to unsubscribe?',
    );
    expect(await page.getByTestId('link-confirm-url').textContent()).toBe('http://unsub.old.example/u?id=7');
    await page.getByTestId('link-confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    const sender = await call(app, 'unsubscribe:options', { message: idOf('<http@unsubscribe.test>') });
    expect(sender.unsubscribed).toBeNull();
    expect(await page.getByTestId('message-unsubscribe').isVisible()).toBe(true);
    expect(foreign).toEqual([]);
  });

  test('a list server that fails: its sentence, naming the host, and the button stays', async () => {
    await openThread(page, 'Server trouble');
    await page.getByTestId('message-unsubscribe').click();
    await page.getByTestId('unsubscribe-confirm-send').click();
    const error = page.getByTestId('message-unsubscribe-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      `127.0.0.1:${web.port} answered 500 to the unsubscribe request: you may still be on the list.`,
    );
    expect(await page.getByTestId('message-unsubscribe').isEnabled()).toBe(true);
    expect(web.received.filter((r) => r.path === '/u/broken').map((r) => r.body)).toEqual([
      'List-Unsubscribe=One-Click',
    ]);
  });

  test('a page to open, confirmed: only that page is opened, and the sender says so', async () => {
    await openThread(page, 'Old-fashioned');
    await page.getByTestId('message-unsubscribe').click();
    await page.getByTestId('link-confirm-open').click();
    await page.getByTestId('message-unsubscribed').waitFor();
    // Browser mode opens it from the page (no system browser to hand it to); the test aborts it, and records it.
    await expect.poll(() => foreign).toEqual(['http://unsub.old.example/u?id=7']);
    expect(
      (await call(app, 'unsubscribe:options', { message: idOf('<http@unsubscribe.test>') })).unsubscribed
        ?.method,
    ).toBe('http');
  });
});
