// The window's title in Debian's Chromium (issue 28): the Inbox with its unread count, "Inbox (3) — Skimmer", kept
// up to date as mail arrives by the background sync (IDLE on a real Dovecot) and as a conversation is read;
// another view or Chat by name. Each step waits for the title it expects (test/README.md, "Waiting in the
// end-to-end suite"), and what it expects is read from Skimmer's own count.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { eml, tempDir } from '../support/temp.ts';

const mail = (n: number) =>
  eml({
    id: `<title${n}@example.com>`,
    subject: `Title check ${n}`,
    date: new Date(Date.UTC(2026, 10, 1, 9, n)).toUTCString().replace('GMT', '+0000'),
  });

let server: Dovecot;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const unreadInInbox = () =>
  app.db
    .prepare(
      "SELECT count(*) FROM messages m JOIN folders f ON f.id = m.folder_id WHERE f.name = 'Inbox' AND m.unread = 1",
    )
    .pluck()
    .get() as number;

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [mail(1), mail(2), mail(3)]);
  await server.append('INBOX', [mail(4)], ['\\Seen']);
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
  });
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await server?.stop();
});

describe('the window title', () => {
  test('is the Inbox with its unread count once the first sync has brought it', async () => {
    await expect.poll(() => page.title()).toBe('Inbox (3) — Skimmer');
    expect(unreadInInbox()).toBe(3);
  });

  test('counts new mail the background sync brings', async () => {
    await server.append('INBOX', [mail(5), mail(6)]);
    await expect.poll(() => page.title()).toBe('Inbox (5) — Skimmer');
    expect(unreadInInbox()).toBe(5);
  });

  test('counts one fewer once a conversation is read', async () => {
    await page.getByTestId('thread-row').filter({ hasText: 'Title check 6' }).click();
    await expect.poll(() => page.title()).toBe('Inbox (4) — Skimmer');
    expect(unreadInInbox()).toBe(4);
  });

  test('names another view, and Chat', async () => {
    await page.getByTestId('view-starred').click();
    await expect.poll(() => page.title()).toBe('Starred — Skimmer');
    await page.getByTestId('chat-open').click();
    await expect.poll(() => page.title()).toBe('Chat — Skimmer');
    await page.getByTestId('mail-open').click();
    await page.getByTestId('view-inbox').click();
    await expect.poll(() => page.title()).toBe('Inbox (4) — Skimmer');
  });
});
