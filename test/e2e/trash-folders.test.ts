// Trash, folders and label renames in the page (issue 29 §4, §7): the real server and bridge, the built renderer
// in Debian's Chromium, on imported mail. A label is renamed from its ⋯ menu and the Undo bar names it back;
// Trash restores a conversation and empties after asking with the count; a folder is made and renamed.
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
const subjects = ['Alpha plans', 'Beta plans', 'Gamma notes', 'Delta notes'];

const threadOf = (subject: string) =>
  app.db.prepare('SELECT thread_id FROM messages WHERE subject = ?').pluck().get(subject) as number;
const bulk = (names: string[], action: object) =>
  call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: names.map(threadOf) },
    action,
  } as never);
const labelItem = (p: Page, name: string) =>
  p.locator('.label-item').filter({ has: p.locator(`[data-testid="label-view"][data-label="${name}"]`) });
const row = (p: Page, subject: string) => p.getByTestId('thread-row').filter({ hasText: subject });
const folderRow = (p: Page, name: string) => p.locator('.folder-row').filter({ hasText: name });

beforeAll(async () => {
  const mail = join(tempDir(), 'Projects');
  mkdirSync(mail);
  for (const [i, subject] of subjects.entries()) {
    const date = `${29 - i} Nov 2026 10:00:00 +0000`;
    writeFileSync(join(mail, `${i}.eml`), eml({ id: `<${i}@x>`, subject, date }));
  }
  await app.importFiles([mail], () => {}).done;
  await bulk(['Alpha plans', 'Beta plans'], { kind: 'label', add: ['Work'], remove: [] });
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('Labels', () => {
  test('a label renamed from its menu shows the new name on its rows; Undo names it back', async () => {
    await labelItem(page, 'Work').getByTestId('label-menu').click();
    await page.getByTestId('label-rename').click();
    await page.getByTestId('ask-name').fill('Plans');
    await page.getByTestId('ask-confirm').click();
    await labelItem(page, 'Plans').waitFor();
    const chips = () => row(page, 'Alpha plans').getByTestId('label-chip').allTextContents();
    await expect.poll(chips).toEqual(['Plans']);
    expect(await page.getByTestId('undo-bar').textContent()).toContain('Renamed the label Work to Plans');
    await page.getByTestId('undo-button').click();
    await labelItem(page, 'Work').waitFor();
    await expect.poll(chips).toEqual(['Work']);
  });

  test('deleting a label asks first with its conversations', async () => {
    await labelItem(page, 'Work').getByTestId('label-menu').click();
    await page.getByTestId('label-delete').click();
    expect(await page.getByTestId('ask-title').textContent()).toBe('Delete the label Work?');
    expect(await page.getByTestId('ask-dialog').textContent()).toContain('It comes off 2 conversations');
    await page.getByTestId('ask-cancel').click();
    expect(await labelItem(page, 'Work').count()).toBe(1);
  });
});

describe('Trash', () => {
  test('Restore puts a conversation back; Empty Trash asks with the count, then empties it', async () => {
    await bulk(['Beta plans', 'Gamma notes', 'Delta notes'], { kind: 'trash' });
    await page.getByTestId('view-trash').click();
    await row(page, 'Gamma notes').waitFor();
    await row(page, 'Beta plans').getByTestId('row-check').click();
    await page.getByTestId('bulk-restore').click();
    await expect.poll(() => row(page, 'Beta plans').count()).toBe(0);
    expect(
      app.db
        .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ?')
        .pluck()
        .get('Beta plans'),
    ).toBe('Projects');

    await page.getByTestId('empty-trash').click();
    expect(await page.getByTestId('ask-title').textContent()).toBe('Delete 2 conversations forever?');
    await page.getByTestId('ask-confirm').click();
    await expect.poll(() => page.getByTestId('thread-row').count()).toBe(0);
    expect(app.db.prepare("SELECT count(*) FROM messages WHERE subject LIKE '% notes'").pluck().get()).toBe(
      0,
    );
    expect(app.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(2);
  });
});

describe('Folders', () => {
  test('a folder is made from its group menu and renamed from its own', async () => {
    await page.getByTestId('folders-group-menu').first().click();
    await page.getByTestId('folder-create').click();
    await page.getByTestId('ask-name').fill('Receipts');
    await page.getByTestId('ask-confirm').click();
    await folderRow(page, 'Receipts').waitFor();

    await folderRow(page, 'Receipts').getByTestId('folder-menu').click();
    await page.getByTestId('folder-rename').click();
    await page.getByTestId('ask-name').fill('Paid');
    await page.getByTestId('ask-confirm').click();
    await folderRow(page, 'Paid').waitFor();
    expect(await folderRow(page, 'Receipts').count()).toBe(0);

    // A name for a special folder is refused in a sentence, and nothing is made.
    await page.getByTestId('folders-group-menu').first().click();
    await page.getByTestId('folder-create').click();
    await page.getByTestId('ask-name').fill('Trash');
    await page.getByTestId('ask-confirm').click();
    await expect
      .poll(() => page.getByTestId('toast').allTextContents())
      .toContainEqual(expect.stringContaining('is the name of a special folder'));
    expect(foreign).toEqual([]);
  });

  // docs/screenshots/{trash,folders,labels-rename}-*.png are copies of these.
  test('the questions and menus in both themes at 1280 and 900 px', async () => {
    await bulk(['Alpha plans'], { kind: 'trash' });
    const shots = join(projectRoot, 'test-results', 'screenshots');
    mkdirSync(shots, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [1280, 900]) {
        const opened = await openApp(app, { foreign, colorScheme, viewport: { width, height: 700 } });
        const p = opened.page;
        const shot = (name: string) =>
          p.screenshot({ path: join(shots, `${name}-${colorScheme}-${width}.png`) });
        try {
          await p.getByTestId('thread-row').first().waitFor();
          await labelItem(p, 'Work').getByTestId('label-menu').click();
          await p.getByTestId('label-rename').click();
          await p.getByTestId('ask-name').fill('Plans');
          await shot('labels-rename');
          await p.getByTestId('ask-cancel').click();

          await folderRow(p, 'Paid').getByTestId('folder-menu').click();
          await p.getByTestId('folder-rename').waitFor();
          await shot('folders-menu');
          await p.keyboard.press('Escape');

          await p.getByTestId('view-trash').click();
          await row(p, 'Alpha plans').waitFor();
          await row(p, 'Alpha plans').getByTestId('row-check').click();
          await p.getByTestId('bulk-restore').waitFor();
          await shot('trash-view');
          await p.getByTestId('empty-trash').click();
          await p.getByTestId('ask-title').waitFor();
          await shot('trash-empty');
          await p.getByTestId('ask-cancel').click();
        } finally {
          await opened.browser.close();
          await opened.served.close();
        }
      }
    expect(foreign).toEqual([]);
  }, 180_000);
});
