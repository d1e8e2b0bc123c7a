// Small things people notice (issue 29 §7), in Debian's Chromium on a real Dovecot account: `?` lists every
// shortcut from the handler's own table; `z` undoes an archive; `]` and `[` archive and open the older or newer
// conversation, in the wide layout and in the narrow one where the reader replaces the list; the Undo bar leaves
// by itself and `z` still takes the change back after it; opening the composer and closing it unwritten leaves the
// conversation where it was, through syncs and a reload.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import { syncAccount } from '../../electron/mail/imap/imap-sync.ts';
import type { Served } from '../../electron/web/server.ts';
import { listShortcuts } from '../../renderer/src/keyboard/shortcut-table.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { addMailAccount } from '../support/mail-account.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { eml, tempDir } from '../support/temp.ts';

// docs/screenshots/shortcuts-*.png are copies of these.
const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });
mkdirSync(shots, { recursive: true });
const subjects = [
  'Budget review',
  'Offsite agenda',
  'Invoice 2041',
  'Team lunch',
  'Lease renewal',
  'Roadmap',
];

let server: Dovecot;
let sink: SmtpSink;
let app: App;
let accountId = 0;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const sync = async () => syncAccount(app.db, await app.accounts.login(accountId));
const rows = () => page.getByTestId('thread-row');
const rowSubjects = () =>
  rows().evaluateAll((els) => els.map((el) => el.querySelector('.row-subject')?.textContent));
const rowIds = () => rows().evaluateAll((els) => els.map((el) => el.getAttribute('data-thread-id')));
const openRowId = () => page.locator('[data-testid="thread-row"].open').getAttribute('data-thread-id');
const readerSubject = () => page.locator('.reader-pane .thread-subject').textContent();
const subjectOf = (threadId: string | null | undefined) =>
  app.db.prepare('SELECT subject FROM threads WHERE id = ?').pluck().get(Number(threadId)) as string;
// The theme the top bar's toggle sets, for the screenshots (the toggle itself moves into More at 900 px).
const theme = (name: 'light' | 'dark') =>
  page.evaluate((n) => {
    document.documentElement.dataset.theme = n;
  }, name);
// Somewhere that takes no key of its own, so the page's shortcuts get the next one.
const focusPage = () => page.locator('body').click({ position: { x: 5, y: 400 } });

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append(
    'INBOX',
    subjects.map((subject, i) =>
      eml({
        id: `<m${i}@example.org>`,
        subject,
        from: 'Lee <lee@example.org>',
        date: `Fri, 2${i} Nov 2026 09:00:00 +0000`,
      }),
    ),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  accountId = await addMailAccount(app, server, sink);
  await sync();
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
  await rows()
    .nth(subjects.length - 1)
    .waitFor();
}, 90_000);

afterAll(async () => {
  // In order: the page before its server, the app before the mail servers it talks to.
  const stops = [() => browser?.close(), () => served?.close(), () => app?.close(), () => sink?.close()];
  for (const stop of [...stops, () => server?.stop()]) await stop();
});

describe('keyboard shortcuts', () => {
  test('? shows every shortcut of the table; Esc closes it and the focus goes back', async () => {
    const search = page.getByTestId('search-input');
    await search.focus();
    // Typed in a field, ? is a character.
    await page.keyboard.type('?');
    expect(await page.getByTestId('shortcuts-dialog').count()).toBe(0);
    await search.fill('');
    await rows().first().focus();
    await page.keyboard.press('?');
    const dialog = page.getByTestId('shortcuts-dialog');
    await dialog.waitFor();
    const listed = await dialog.getByTestId('shortcut-row').allTextContents();
    for (const row of Object.values(listShortcuts).flat()) {
      expect(listed.some((text) => text.endsWith(row.does))).toBe(true);
    }
    for (const does of ['Go to Inbox', 'Write a new mail', 'Reply all', 'Stop the running answer']) {
      expect(listed.some((text) => text.endsWith(does))).toBe(true);
    }
    await page.screenshot({ path: join(shots, 'shortcuts-dialog-light-1280.png') });
    await theme('dark');
    await page.screenshot({ path: join(shots, 'shortcuts-dialog-dark-1280.png') });
    await theme('light');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('thread-row');
  });

  test('z undoes an archive', async () => {
    const [first] = await rowIds();
    await rows().first().click();
    await expect.poll(openRowId).toBe(first);
    await focusPage();
    await page.keyboard.press('e');
    await expect.poll(async () => (await rowIds()).includes(first ?? '')).toBe(false);
    await page.keyboard.press('z');
    await expect.poll(async () => (await rowIds())[0]).toBe(first);
    await expect.poll(() => page.getByTestId('undo-done').textContent()).toBe('Undone: Archived 1 message');
  });

  test('] archives the open conversation and opens the older one; [ the newer one', async () => {
    const [, second, third, fourth] = await rowIds();
    await rows().nth(2).click();
    await expect.poll(openRowId).toBe(third);
    await focusPage();
    await page.keyboard.press(']');
    await expect.poll(async () => (await rowIds()).includes(third ?? '')).toBe(false);
    await expect.poll(openRowId).toBe(fourth);
    await expect.poll(readerSubject).toBe(subjectOf(fourth));
    await page.keyboard.press('[');
    await expect.poll(async () => (await rowIds()).includes(fourth ?? '')).toBe(false);
    await expect.poll(openRowId).toBe(second);
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 1 message');
  });

  test('the Undo bar leaves by itself, and z still undoes after it has gone', async () => {
    const before = await rowIds();
    await page.getByTestId('undo-bar').waitFor();
    await expect.poll(() => page.getByTestId('undo-bar').count(), { timeout: 60_000 }).toBe(0);
    await focusPage();
    await page.keyboard.press('z');
    await expect.poll(async () => (await rowIds()).length).toBe(before.length + 1);
  });

  test('at 900 px, ] in the reader (which replaces the list) opens the older conversation', async () => {
    await page.setViewportSize({ width: 900, height: 800 });
    // The reader is open from the test before, in the list's place: u goes back to the list.
    await focusPage();
    await page.keyboard.press('u');
    await rows().first().waitFor();
    const ids = await rowIds();
    await rows().nth(1).click();
    await expect.poll(readerSubject).toBe(subjectOf(ids[1]));
    await expect.poll(() => rows().count()).toBe(0);
    await focusPage();
    await page.keyboard.press(']');
    await expect.poll(readerSubject).toBe(subjectOf(ids[2]));
    await page.keyboard.press('?');
    await page.getByTestId('shortcuts-dialog').waitFor();
    await page.screenshot({ path: join(shots, 'shortcuts-dialog-light-900.png') });
    await theme('dark');
    await page.screenshot({ path: join(shots, 'shortcuts-dialog-dark-900.png') });
    await theme('light');
    await page.keyboard.press('Escape');
    await page.keyboard.press('z');
    await page.keyboard.press('u');
    // Back in the list, with the conversation z brought back.
    await expect.poll(rowIds).toEqual(ids);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('opening the composer and closing it unwritten keeps the row where it was, after syncs and a reload', async () => {
    const before = await rowSubjects();
    const last = rows().last();
    await last.click();
    await focusPage();
    await page.keyboard.press('r');
    await page.getByTestId('composer').waitFor();
    await expect.poll(() => app.db.prepare('SELECT count(*) FROM drafts').pluck().get()).toBe(1);
    // While it is open, as the background sync would, twice: the first sends what was queued, the second reads
    // back what the server's Drafts hold (an empty reply there used to join the conversation and date it now).
    await sync();
    await sync();
    await page.getByTestId('composer-close').click();
    await expect.poll(() => page.getByTestId('composer').count()).toBe(0);
    await sync();
    expect(await rowSubjects()).toEqual(before);
    await page.reload();
    await expect.poll(() => rows().count()).toBe(before.length);
    expect(await rowSubjects()).toEqual(before);
    expect(foreign).toEqual([]);
  });
});
