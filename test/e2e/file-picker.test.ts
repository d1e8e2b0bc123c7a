// Choosing mail to import without typing a path (DESIGN §12, "Choosing files"): the real server and bridge, the
// built renderer in Debian's Chromium. The Import dialog opens Skimmer's own browser of the user's folders (browser
// mode has no system dialog); the test goes to the temporary folder, finds its folder with the filter, opens it,
// looks into the Maildir and comes back with the keyboard, ticks the Maildir and the mbox, imports both, and sees
// their messages in the list. Nothing leaves loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const mail = tempDir('skimmer-picker-e2e-');
// A folder with only a hidden one in it, as a home folder with its ~/.thunderbird.
const dotted = tempDir('skimmer-picker-dots-');
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const lf = (text: string) => text.replace(/\r\n/g, '\n');

beforeAll(async () => {
  const maildir = join(mail, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  writeFileSync(
    join(maildir, 'cur', '1700000000.1.host:2,S'),
    eml({ id: '<md1@x>', subject: 'Maildir harbour report' }),
  );
  writeFileSync(
    join(maildir, 'new', '1700000001.2.host'),
    eml({ id: '<md2@x>', subject: 'Maildir lighthouse notes' }),
  );
  writeFileSync(
    join(mail, 'archive.mbox'),
    [
      'From alice@example.com Sat Jan  1 00:00:00 2000',
      lf(eml({ id: '<mb1@x>', subject: 'Mbox orchard invoice' })),
      'From alice@example.com Sat Jan  1 00:00:00 2000',
      lf(eml({ id: '<mb2@x>', subject: 'Mbox quarry minutes' })),
    ].join('\n'),
  );
  writeFileSync(join(mail, 'readme.txt'), 'not mail');
  mkdirSync(join(dotted, '.thunderbird'));
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const entry = (name: string) => page.locator(`[data-testid="browse-entry"][data-name="${name}"]`);
const entryNames = () =>
  page.getByTestId('browse-entry').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
const crumbs = () => page.getByTestId('browse-crumb').allTextContents();

describe('choosing mail to import', () => {
  test('browses to a folder, picks a Maildir and an mbox with the keyboard, and imports both', async () => {
    await page.getByTestId('import-open').first().click();
    await page.getByTestId('import-choose').click();
    await page.getByTestId('file-browser').waitFor();
    // It starts in the home folder.
    await expect.poll(crumbs).toEqual(['Home']);

    await page.getByTestId('browse-place').filter({ hasText: 'Temporary folder' }).click();
    await expect.poll(crumbs).toEqual(['Temporary folder']);
    // The temporary folder may hold thousands of entries: the filter finds ours.
    await page.getByTestId('browse-filter').fill(basename(mail));
    await expect.poll(entryNames).toEqual([basename(mail)]);
    await entry(basename(mail)).getByTestId('browse-open').click();
    await expect.poll(crumbs).toEqual(['Temporary folder', basename(mail)]);
    await expect.poll(entryNames).toEqual(['Maildir', 'archive.mbox', 'readme.txt']);
    expect(await entry('Maildir').getAttribute('data-looks')).toBe('maildir');
    expect(await entry('archive.mbox').getAttribute('data-looks')).toBe('mbox');

    // The keyboard: the list has the focus after a folder opens; Enter opens the Maildir, Backspace comes back.
    const list = page.getByTestId('browse-list');
    await expect.poll(() => list.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(entryNames).toEqual(['cur', 'new', 'tmp']);
    await page.keyboard.press('Backspace');
    await expect.poll(entryNames).toEqual(['Maildir', 'archive.mbox', 'readme.txt']);
    // Space ticks the Maildir (the first row), ArrowDown and Space the mbox.
    await list.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => entry('Maildir').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => entry('archive.mbox').getAttribute('aria-selected')).toBe('true');
    expect(await entry('readme.txt').getAttribute('aria-selected')).toBe('false');
    await expect
      .poll(() => page.getByTestId('browse-chosen').textContent())
      .toMatch(/Maildir.*archive\.mbox/);
    await page.screenshot({ path: join(shots, 'file-picker.png') });

    await page.getByTestId('browse-confirm').click();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/Imported\s*4(?!\d)/i);
    await page.getByTestId('import-close').click();
    // Imported folders are not the Inbox: All mail holds them.
    await page.getByTestId('view-all').click();

    const rows = () => page.getByTestId('thread-row').allTextContents();
    for (const subject of [
      'Maildir harbour report',
      'Maildir lighthouse notes',
      'Mbox orchard invoice',
      'Mbox quarry minutes',
    ]) {
      await expect.poll(async () => (await rows()).some((r) => r.includes(subject))).toBe(true);
    }
    await page.screenshot({ path: join(shots, 'file-picker-imported.png') });
    expect(foreign).toEqual([]);
  });

  test('goes back with a breadcrumb and up with Up, shows hidden entries when asked, and leaves the browser on Esc, not the dialog', async () => {
    await page.getByTestId('import-open').first().click();
    await page.screenshot({ path: join(shots, 'file-picker-start.png') });
    await page.getByTestId('import-choose').click();
    await page.getByTestId('file-browser').waitFor();
    await page.getByTestId('browse-place').filter({ hasText: 'Temporary folder' }).click();
    await page.getByTestId('browse-filter').fill(basename(mail));
    await entry(basename(mail)).getByTestId('browse-open').click();
    await page.getByTestId('browse-open').filter({ hasText: 'Maildir' }).click();
    await expect.poll(crumbs).toEqual(['Temporary folder', basename(mail), 'Maildir']);
    await page
      .getByTestId('browse-crumb')
      .filter({ hasText: basename(mail) })
      .click();
    await expect.poll(crumbs).toEqual(['Temporary folder', basename(mail)]);
    await page.getByTestId('browse-up').click();
    await expect.poll(crumbs).toEqual(['Temporary folder']);
    // At the top of a place there is nothing above.
    expect(await page.getByTestId('browse-up').isDisabled()).toBe(true);

    // A folder of hidden entries says so, and "Hidden folders" shows them.
    await page.getByTestId('browse-filter').fill(basename(dotted));
    await entry(basename(dotted)).getByTestId('browse-open').click();
    await expect
      .poll(() => page.getByTestId('browse-empty').textContent())
      .toBe('Nothing here but 1 hidden entry: tick “Hidden folders” to see them.');
    await page.getByTestId('browse-hidden').check();
    await expect.poll(entryNames).toEqual(['.thunderbird']);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('file-browser').count()).toBe(0);
    expect(await page.getByTestId('import-dialog').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('import-dialog').count()).toBe(0);
  });
});
