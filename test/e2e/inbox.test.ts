// The Inbox in Debian's Chromium, on the demo mailbox: the app opens on it; `e` on the open thread takes the
// thread out of the list and opens the next one (Gmail's auto-advance); Undo brings it back; switching to
// another folder or view never leaves the reader showing a thread from elsewhere.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  await importDemo(app);
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const rows = () => page.getByTestId('thread-row');
const rowIds = () => rows().evaluateAll((els) => els.map((el) => el.getAttribute('data-thread-id')));
const openRowId = () => page.locator('[data-testid="thread-row"].open').getAttribute('data-thread-id');
const readerSubject = () => page.locator('.reader-pane .thread-subject').textContent();

describe('the Inbox', () => {
  test('is the view the app opens on', async () => {
    await expect.poll(() => page.getByTestId('view-inbox').getAttribute('aria-current')).toBe('true');
    expect(await page.getByTestId('view-all').getAttribute('aria-current')).toBe('false');
    await expect.poll(() => rows().count()).toBeGreaterThan(10);
  });

  test('e on the open thread takes it out of the list and opens the next; Undo brings it back', async () => {
    const before = await rowIds();
    const [first, second] = before;
    await rows().first().click();
    await expect.poll(openRowId).toBe(first);
    const firstSubject = await readerSubject();
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('e');
    await expect.poll(async () => (await rowIds()).includes(first ?? '')).toBe(false);
    await expect.poll(openRowId).toBe(second);
    expect(await readerSubject()).not.toBe(firstSubject);
    await page.getByTestId('undo-button').click();
    await expect.poll(async () => (await rowIds())[0]).toBe(first);
  });

  test('switching folders closes the reader', async () => {
    await rows().first().click();
    await expect.poll(() => page.locator('.reader-pane .thread').count()).toBe(1);
    await page.locator('[data-testid^="folder-"]').first().click();
    await expect.poll(() => page.locator('.reader-pane .thread').count()).toBe(0);
    await rows().first().click();
    await expect.poll(() => page.locator('.reader-pane .thread').count()).toBe(1);
    await page.getByTestId('view-all').click();
    await expect.poll(() => page.locator('.reader-pane .thread').count()).toBe(0);
    expect(foreign).toEqual([]);
  });
});
