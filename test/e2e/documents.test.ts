// Documents end to end (issue 7: documents imported and searchable beside mail): the real server and bridge,
// the built renderer in Debian's Chromium. What it proves: files ticked in the Documents dialog's file browser
// import a PDF and a .docx made by the tests, and a broken PDF is Skimmer's sentence while the others still come
// in; a typed path imports too; the
// list shows them; a search finds the PDF's second page and shows its name, the location and the snippet as
// text, and a search with no match says so; a file name with a direction override shows in its real order; nothing leaves loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { makeDocx, makePdf } from '../support/documents.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const files = tempDir('skimmer-documents-');
const handbook = join(files, 'handbook.pdf');
const notes = join(files, 'notes.docx');
const broken = join(files, 'broken.pdf');
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  writeFileSync(handbook, await makePdf(['Welcome.', 'Expenses are paid monthly.']));
  writeFileSync(notes, await makeDocx(['Meeting notes.', 'Bring the slides.']));
  writeFileSync(broken, 'this is not a PDF at all, just junk text');
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

const dialog = (): Locator => page.getByTestId('documents-dialog');

// The secondary way in: "Type a path" opened (it starts closed), then the paths typed.
async function typePaths(paths: string) {
  const open = await dialog()
    .locator('details.type-a-path')
    .evaluate((d) => (d as HTMLDetailsElement).open);
  if (!open) await dialog().getByTestId('documents-type-path').click();
  await dialog().getByTestId('documents-paths').fill(paths);
}

describe('The Documents dialog', () => {
  test('imports the files, and a broken one is a sentence while the others come in', async () => {
    await page.getByTestId('documents-open').click();
    await dialog().waitFor();
    expect(await dialog().getByTestId('documents-empty').textContent()).toBe('No documents yet.');
    await dialog().getByTestId('documents-choose').click();
    await dialog().getByTestId('browse-place').filter({ hasText: 'Temporary folder' }).click();
    await dialog().getByTestId('browse-filter').fill(basename(files));
    const entry = (name: string) => dialog().locator(`[data-testid="browse-entry"][data-name="${name}"]`);
    await entry(basename(files)).getByTestId('browse-open').click();
    for (const file of [handbook, notes, broken]) {
      await entry(basename(file)).getByTestId('browse-check').check();
    }
    await dialog().getByTestId('browse-confirm').click();
    await dialog().getByTestId('documents-result').waitFor();
    const imported = await dialog().getByTestId('documents-imported').allTextContents();
    expect(imported).toHaveLength(2);
    expect(imported.some((t) => /^handbook\.pdf: imported, \d+ chunks?$/.test(t))).toBe(true);
    expect(imported.some((t) => /^notes\.docx: imported, \d+ chunks?$/.test(t))).toBe(true);
    expect(await dialog().getByTestId('documents-failed').allTextContents()).toEqual([
      'broken.pdf could not be read as a PDF file.',
    ]);
  });

  test('lists the imported documents', async () => {
    await expect.poll(() => dialog().getByTestId('document-row').count()).toBe(2);
    const rows = (await dialog().getByTestId('document-row').allTextContents()).join('\n');
    expect(rows).toContain('handbook.pdf');
    expect(rows).toContain('pdf');
    expect(rows).toContain('notes.docx');
    expect(rows).toContain('docx');
  });

  test('importing the same file again says it is already there', async () => {
    await typePaths(handbook);
    await dialog().getByTestId('documents-import').click();
    await expect
      .poll(() => dialog().getByTestId('documents-imported').allTextContents())
      .toEqual(['handbook.pdf: already imported']);
    expect(await dialog().getByTestId('document-row').count()).toBe(2);
  });

  test('a search shows the document, the location and the snippet', async () => {
    await dialog().getByTestId('documents-query').fill('expenses');
    await dialog().getByTestId('documents-search').click();
    const hit = dialog().getByTestId('document-hit').first();
    await hit.waitFor();
    const text = await hit.textContent();
    expect(text).toContain('handbook.pdf');
    expect(text).toContain('page 2');
    expect(await hit.locator('.documents-hit-snippet').textContent()).toMatch(/Expenses/i);
    await page.screenshot({ path: join(shots, 'documents-search.png') });
  });

  test('a search that matches nothing says so, and Esc closes the dialog', async () => {
    await dialog().getByTestId('documents-query').fill('zeppelin');
    await dialog().getByTestId('documents-search').click();
    await dialog().getByTestId('documents-no-hits').waitFor();
    expect(await dialog().getByTestId('document-hit').count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await page.getByTestId('documents-open').click();
    await dialog().waitFor();
  });

  test('a file name with a direction override shows in its real order', async () => {
    // invoice<U+202E>fdp.txt would display as "invoicetxt.pdf" if the override were kept.
    const posing = join(files, 'invoice\u202efdp.txt');
    writeFileSync(posing, 'Amount due: 40 euros.\n');
    await typePaths(posing);
    await dialog().getByTestId('documents-import').click();
    await expect
      .poll(() => dialog().getByTestId('documents-imported').allTextContents())
      .toEqual(['invoicefdp.txt: imported, 1 chunk']);
    await expect.poll(() => dialog().getByTestId('document-row').count()).toBe(3);
    const rows = (await dialog().getByTestId('document-row').allTextContents()).join('\n');
    expect(rows).toContain('invoicefdp.txt');
    expect(rows).not.toContain('\u202e');
  });

  test('nothing left loopback', () => {
    expect(foreign).toEqual([]);
  });
});
