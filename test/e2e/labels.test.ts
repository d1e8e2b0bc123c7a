// Labels in the page (issue 29 §4): the real server and bridge, the built renderer in Debian's Chromium. The
// folder list's Labels section shows each label with its unread and total messages, a click shows that label's
// view (the search label:NAME), and a colour picked is kept after a reload.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const threadOf = (subject: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE subject = ?').pluck().get(subject) as number;
const labelButton = (name: string) => page.locator(`[data-testid="label-view"][data-label="${name}"]`);

beforeAll(async () => {
  const mail = tempDir();
  const subjects = ['Alpha plans', 'Beta plans', 'Gamma notes'];
  for (const [i, subject] of subjects.entries()) {
    const date = `${29 - i} Nov 2026 10:00:00 +0000`;
    writeFileSync(join(mail, `${i}.eml`), eml({ id: `<${i}@x>`, subject, date }));
  }
  await app.importFiles([mail], () => {}).done;
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [threadOf('Alpha plans'), threadOf('Beta plans')] },
    action: { kind: 'label', add: ['Work'], remove: [] },
  });
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [threadOf('Alpha plans')] },
    action: { kind: 'read', read: true },
  });
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('Labels', () => {
  test('the Labels section shows each label with its unread and total messages', async () => {
    const work = labelButton('Work');
    await work.waitFor();
    expect(await work.locator('.folder-unread').textContent()).toBe('1');
    expect(await work.locator('.folder-total').textContent()).toBe('2');
  });

  test('list rows show their labels as chips', async () => {
    const chips = (subject: string) =>
      page.getByTestId('thread-row').filter({ hasText: subject }).getByTestId('label-chip').allTextContents();
    await expect.poll(() => chips('Alpha plans')).toEqual(['Work']);
    expect(await chips('Gamma notes')).toEqual([]);
  });

  test('the reader shows the labels; × takes one off, and Undo puts it back', async () => {
    await page.getByTestId('thread-row').filter({ hasText: 'Beta plans' }).click();
    const inReader = () => page.getByTestId('reader-label').allTextContents();
    await expect.poll(inReader).toEqual(['Work×']);
    await page.getByLabel('Remove label Work').click();
    await expect.poll(inReader).toEqual([]);
    await page.getByTestId('undo-button').click();
    await expect.poll(inReader).toEqual(['Work×']);
  });

  test('clicking a label shows its view', async () => {
    await labelButton('Work').click();
    await expect
      .poll(async () => (await page.getByTestId('search-hit').allTextContents()).join(' | '))
      .toMatch(/Alpha plans.*Beta plans|Beta plans.*Alpha plans/);
    expect((await page.getByTestId('search-hit').allTextContents()).join(' ')).not.toContain('Gamma notes');
    await expect.poll(() => labelButton('Work').getAttribute('aria-current')).toBe('true');
  });

  test('a colour picked is kept after a reload', async () => {
    await page.getByLabel('Colour of Work').click();
    await page.getByTestId('label-swatch-teal').click();
    await expect
      .poll(() => labelButton('Work').locator('.label-dot').getAttribute('data-colour'))
      .toBe('teal');
    await page.reload();
    await expect
      .poll(() => labelButton('Work').locator('.label-dot').getAttribute('data-colour'))
      .toBe('teal');
    expect(foreign).toEqual([]);
  });

  // docs/screenshots/labels-*.png are copies of these.
  test('the Labels section in both themes at 1280 and 900 px', async () => {
    await call(app, 'mail:bulk', {
      selection: { scope: { view: 'all' }, threads: [threadOf('Gamma notes')] },
      action: { kind: 'label', add: ['Receipts'], remove: [] },
    });
    const receipts = (await call(app, 'label:overview', {})).find((l) => l.name === 'Receipts');
    await call(app, 'label:setColour', { id: receipts?.id ?? 0, colour: 'orange' });
    const shots = join(projectRoot, 'test-results', 'screenshots');
    mkdirSync(shots, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [1280, 900]) {
        const opened = await openApp(app, { foreign, colorScheme, viewport: { width, height: 700 } });
        try {
          const section = opened.page.getByTestId('labels-section');
          await opened.page.locator('[data-label="Receipts"]').waitFor();
          expect(await section.isVisible()).toBe(true);
          await opened.page.getByTestId('thread-row').filter({ hasText: 'Alpha plans' }).click();
          await opened.page.getByTestId('reader-label').first().waitFor();
          await opened.page.screenshot({ path: join(shots, `labels-section-${colorScheme}-${width}.png`) });
        } finally {
          await opened.browser.close();
          await opened.served.close();
        }
      }
    expect(foreign).toEqual([]);
  }, 120_000);
});
