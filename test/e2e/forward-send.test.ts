// A forward from the reader, end to end (issue 16, "Write mail"): a real Dovecot and SMTP server on loopback,
// the app with its background sync and outbox sender, the built renderer in Debian's Chromium. What it proves:
// `f` on a synced message with a file opens the composer with the file as a chip; Ctrl+Enter sends it through
// the outbox after the undo window; the SMTP server receives the file with its bytes intact (read from the IMAP
// server at send, never stored in SQLite); and the Sent copy lands in the account's Sent folder on the server.
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { tempDir } from '../support/temp.ts';
import { waitUntil } from '../support/wait-until.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const plan = randomBytes(60_000);
const poll = { timeout: 30_000, interval: 250 };

let server: Dovecot;
let sink: SmtpSink;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const withPlan = [
  'From: Lee Park <lee@example.org>',
  'To: Test <test@example.com>',
  'Subject: Floor plan',
  'Date: Mon, 30 Nov 2026 11:00:00 +0000',
  'Message-ID: <plan@example.org>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The new floor plan is attached.',
  '--b1',
  'Content-Type: application/pdf; name="plan.pdf"',
  'Content-Disposition: attachment; filename="plan.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  plan.toString('base64').replace(/.{76}/g, '$&\r\n'),
  '--b1--',
  '',
].join('\r\n');

async function sentSources(): Promise<Buffer[]> {
  const c = await server.client();
  try {
    await c.mailboxOpen('Sent', { readOnly: true });
    const all = await c.fetchAll('1:*', { source: true }).catch(() => []);
    return all.map((m) => m.source as Buffer);
  } finally {
    await c.logout();
  }
}

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append('INBOX', [withPlan]);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  await waitUntil(
    () =>
      app.db
        .prepare("SELECT count(*) FROM messages WHERE message_id = '<plan@example.org>'")
        .pluck()
        .get() === 1,
    poll,
    'the account did not sync',
  );
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 860 } }));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await sink?.close();
  await server?.stop();
});

const composer = (): Locator => page.getByTestId('composer');

describe('Forward from the reader', () => {
  test('sends the synced file with its bytes intact, and the Sent copy reaches the server', async () => {
    await page.locator('[data-testid="thread-row"]', { hasText: 'Floor plan' }).click();
    await page.getByTestId('message').first().waitFor();
    await page.locator('.reader-pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('f');
    await expect.poll(() => composer().locator('.compose-form').getAttribute('data-ready')).toBe('true');
    expect(await composer().getByTestId('composer-subject').inputValue()).toBe('Fwd: Floor plan');
    expect(await composer().textContent()).toContain('plan.pdf');
    // Nothing of the file was copied ahead of the send.
    expect(
      app.db.prepare('SELECT count(*) FROM draft_attachments WHERE content IS NOT NULL').pluck().get(),
    ).toBe(0);

    await composer().getByTestId('composer-to-input').fill('kim@example.org,');
    await page.keyboard.press('Tab');
    await composer().getByTestId('composer-body').focus();
    await page.keyboard.press('Control+Enter');
    await composer().waitFor({ state: 'detached' });

    // The undo window (10 s), then the sender's next round.
    const [got] = await sink.waitFor(1, 40_000);
    expect(got?.to).toEqual(['kim@example.org']);
    const parsed = await simpleParser(got?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe('Fwd: Floor plan');
    expect(parsed.attachments.map((a) => [a.filename, sha(a.content)])).toEqual([['plan.pdf', sha(plan)]]);

    await expect
      .poll(
        async () =>
          (await sentSources()).map((s) => s.toString('latin1')).filter((s) => s.includes('Fwd: Floor plan'))
            .length,
        {
          timeout: 30_000,
          interval: 500,
        },
      )
      .toBe(1);
    const copy = (await sentSources()).find((s) => s.toString('latin1').includes('Fwd: Floor plan'));
    const sentCopy = await simpleParser(copy ?? Buffer.alloc(0));
    expect(sentCopy.attachments.map((a) => sha(a.content))).toEqual([sha(plan)]);
    expect(foreign).toEqual([]);
  });
});
