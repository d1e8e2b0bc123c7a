// Stars in the page (DESIGN §11, "Stars"): the real server and bridge, the built renderer in Debian's Chromium.
// The reader's Star button, the star on a list row and `s` each toggle the conversation's star; the list shows
// it, the stored column follows, and the Undo bar takes a star back.
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
let page: Page;
const foreign: string[] = [];

const starredIn = (subject: string) =>
  app.db.prepare('SELECT starred FROM messages WHERE subject = ?').pluck().get(subject);
const row = (subject: string) => page.getByTestId('thread-row').filter({ hasText: subject });

beforeAll(async () => {
  const mail = tempDir();
  writeFileSync(
    join(mail, 'a.eml'),
    eml({ id: '<a@x>', subject: 'Alpha plans', date: 'Sun, 29 Nov 2026 10:00:00 +0000' }),
  );
  writeFileSync(
    join(mail, 'b.eml'),
    eml({ id: '<b@x>', subject: 'Beta plans', date: 'Sat, 28 Nov 2026 10:00:00 +0000' }),
  );
  await app.importFiles([mail], () => {}).done;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('Stars', () => {
  test('the reader’s Star button stars the conversation, the list shows it, and Undo takes it back', async () => {
    await row('Alpha plans').click();
    const star = page.getByTestId('thread-star');
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => row('Alpha plans').getByTestId('row-star').getAttribute('data-starred'))
      .toBe('true');
    expect(starredIn('Alpha plans')).toBe(1);

    await page.getByTestId('undo-button').click();
    await expect.poll(() => starredIn('Alpha plans')).toBe(0);
    await expect
      .poll(() => row('Alpha plans').getByTestId('row-star').getAttribute('data-starred'))
      .toBe('false');
  });

  test('s stars the selected conversation and unstars it again', async () => {
    await row('Beta plans').click();
    await page.getByTestId('thread-star').waitFor();
    await page.locator('body').focus();
    await page.keyboard.press('s');
    await expect.poll(() => starredIn('Beta plans')).toBe(1);
    await expect
      .poll(() => row('Beta plans').getByTestId('row-star').getAttribute('data-starred'))
      .toBe('true');
    await page.keyboard.press('s');
    await expect.poll(() => starredIn('Beta plans')).toBe(0);
  });

  test('the star on a list row toggles it without opening the conversation', async () => {
    await row('Alpha plans').getByTestId('row-star').click();
    await expect.poll(() => starredIn('Alpha plans')).toBe(1);
    await expect
      .poll(() => row('Alpha plans').getByTestId('row-star').getAttribute('data-starred'))
      .toBe('true');
    // Beta stays the one open in the reader.
    await expect.poll(() => page.getByTestId('thread-star').getAttribute('aria-pressed')).toBe('false');
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
