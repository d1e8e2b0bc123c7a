// The frame at the widths people use (issue 29 §6): 800–1,280 CSS px and 150 % zoom. Nothing scrolls sideways,
// every top-bar item is in the bar or in its More menu and works, and below 1,070 px an open conversation
// takes the list's place until Back, Esc or u. The real server and bridge, the built renderer in Debian's Chromium.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
const foreign: string[] = [];

const barItems = [
  'drafts-open',
  'documents-open',
  'triage-open',
  'accounts-open',
  'identities-open',
  'services-open',
  'permissions-open',
  'notify-toggle',
  'theme-toggle',
];
async function pageAt(width: number, scale = 1): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 760 }, deviceScaleFactor: scale });
  const page = await context.newPage();
  await page.goto(served.url);
  await page.getByTestId('thread-row').first().waitFor();
  return page;
}

const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth };
  });

beforeAll(async () => {
  const mail = tempDir();
  for (let i = 0; i < 6; i++) {
    writeFileSync(
      join(mail, `m${i}.eml`),
      eml({
        id: `<m${i}@x>`,
        subject: `Quarterly planning notes for the regional offices, part ${i}`,
        date: `Sun, 2${i} Nov 2026 10:00:00 +0000`,
      }),
    );
  }
  await app.importFiles([mail], () => {}).done;
  let page: Page;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
  await page.context().close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const widths: [string, number, number][] = [
  ['800 px', 800, 1],
  ['900 px', 900, 1],
  ['1,280 px', 1280, 1],
  ['150 % zoom of 1,280 px', Math.round(1280 / 1.5), 1.5],
];

describe('The frame at 800–1,280 px', () => {
  for (const [name, width, scale] of widths) {
    test(`${name}: nothing scrolls sideways, with the list and with a conversation open`, async () => {
      const page = await pageAt(width, scale);
      const list = await sideways(page);
      expect(list.scrollWidth).toBeLessThanOrEqual(list.innerWidth);
      await page.getByTestId('thread-row').first().click();
      await page.locator('.thread-subject').waitFor();
      const open = await sideways(page);
      expect(open.scrollWidth).toBeLessThanOrEqual(open.innerWidth);
      // A subject wraps at words, not a letter a line: its box is wider than a few characters.
      const subjectWidth = await page
        .locator('.thread-subject')
        .evaluate((el) => el.getBoundingClientRect().width);
      expect(subjectWidth).toBeGreaterThan(200);
      // The top bar is one row: its height is that of one button with its padding.
      const bar = await page.locator('.top-bar').evaluate((el) => el.getBoundingClientRect().height);
      expect(bar).toBeLessThan(60);
      await page.context().close();
    });

    test(`${name}: every top-bar item is in the bar or in More, and clicking it works`, async () => {
      const page = await pageAt(width, scale);
      for (const id of barItems) {
        const inBar = await page.getByTestId(id).isVisible();
        let target = page.getByTestId(id);
        if (!inBar) {
          await page.getByTestId('top-more').click();
          target = page.getByTestId(`more-${id}`);
          await expect.poll(() => target.isVisible()).toBe(true);
        }
        if (id === 'theme-toggle' || id === 'notify-toggle') {
          // Notify asks the browser's permission: reachable is what is checked here; Esc closes the menu.
          if (id === 'notify-toggle') {
            if (!inBar) {
              await page.keyboard.press('Escape');
              await expect.poll(() => page.getByTestId('top-more-menu').count()).toBe(0);
            }
            continue;
          }
          const before = await page.evaluate(() => document.documentElement.dataset.theme);
          await target.click();
          await expect
            .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
            .not.toBe(before);
          continue;
        }
        await target.click();
        // Each opens its own modal dialog; Esc closes it.
        await expect.poll(() => page.locator('dialog[open]').count(), { message: id }).toBe(1);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.locator('dialog[open]').count(), { message: id }).toBe(0);
      }
      await page.context().close();
    });
  }

  test('at 1,280 px every item is in the bar and there is no More button', async () => {
    const page = await pageAt(1280);
    for (const id of barItems) expect(await page.getByTestId(id).isVisible()).toBe(true);
    expect(await page.getByTestId('top-more').isVisible()).toBe(false);
    await page.context().close();
  });

  test('More opens from the keyboard, moves with the arrows and closes with Esc', async () => {
    const page = await pageAt(900);
    await page.getByTestId('top-more').focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('top-more-menu');
    await menu.waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    const first = await focused();
    expect(first).toMatch(/^more-/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).not.toBe(first);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await focused()).toBe('top-more');
    await page.context().close();
  });

  test('at 900 px an open conversation replaces the list; Back, Esc and u return to it', async () => {
    const page = await pageAt(900);
    const list = page.locator('.thread-pane');
    const reader = page.locator('.reader-pane');
    expect(await list.isVisible()).toBe(true);
    expect(await reader.isVisible()).toBe(false);
    for (const back of ['button', 'Escape', 'u'] as const) {
      await page.getByTestId('thread-row').nth(1).click();
      await page.locator('.thread-subject').waitFor();
      await expect.poll(() => list.isVisible()).toBe(false);
      expect(await reader.isVisible()).toBe(true);
      if (back === 'button') await page.getByTestId('back-to-list').click();
      else {
        await page.locator('body').focus();
        await page.keyboard.press(back);
      }
      await expect.poll(() => list.isVisible()).toBe(true);
      expect(await reader.isVisible()).toBe(false);
    }
    // j and Enter still work from the list the reader gave back.
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => reader.isVisible()).toBe(true);
    await page.context().close();
  });

  test('at 1,280 px the list and the reader show side by side and Esc leaves the conversation open', async () => {
    const page = await pageAt(1280);
    await page.getByTestId('thread-row').first().click();
    await page.locator('.thread-subject').waitFor();
    expect(await page.locator('.thread-pane').isVisible()).toBe(true);
    expect(await page.getByTestId('back-to-list').count()).toBe(0);
    await page.locator('body').focus();
    await page.keyboard.press('Escape');
    expect(await page.locator('.thread-subject').isVisible()).toBe(true);
    expect(foreign).toEqual([]);
    await page.context().close();
  });
});
