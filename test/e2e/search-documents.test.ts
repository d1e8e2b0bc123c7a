// Documents in the main search, beside mail (issue 7: documents "searchable in FTS5 beside mail"): the real
// server and bridge, the built renderer in Debian's Chromium, the demo mailbox and a PDF made by the test,
// imported through the bridge. What it proves (DESIGN §12): a word only on the PDF's second page, typed into
// the main search box, finds the document with "page 2" in a Documents group; opening the hit shows the page
// view at that part, marked, and closing it returns to the results; a word in mail and the document shows both
// groups, mail first, and j/k/Enter reach the document hit; a documents search that fails shows Skimmer's
// sentence in its group while the mail hits stay; nothing leaves loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { makePdf } from '../support/documents.ts';
import { searchMail } from '../support/mail-search.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let documentId = 0;

beforeAll(async () => {
  await importDemo(app);
  const pdf = join(tempDir('skimmer-search-docs-'), 'field-guide.pdf');
  // "quokka" is in no demo message; "budget" is in several (the Skylark budget thread).
  writeFileSync(
    pdf,
    await makePdf([
      'Welcome to the field guide.',
      'The quokka lives on Rottnest Island.',
      'The budget for the survey is approved.',
    ]),
  );
  const [imported] = (await call(app, 'documents:import', { paths: [pdf] })).imported;
  documentId = imported?.id ?? 0;
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const documentHits = (): Locator => page.getByTestId('search-document-hit');
const pageView = (): Locator => page.getByTestId('document-page');

describe('Documents in the main search', () => {
  test('a word only on the PDF’s second page finds the document with "page 2" in a Documents group', async () => {
    await searchMail(page, 'quokka');
    expect(await documentHits().count()).toBe(1);
    expect(await page.getByTestId('search-hit').count()).toBe(0);
    expect(await page.getByTestId('search-documents').locator('legend').textContent()).toBe('Documents');
    const hit = documentHits().first();
    expect(await hit.getAttribute('data-chunk-id')).toBe(`d${documentId}c2`);
    expect(await hit.locator('.participants').textContent()).toBe('field-guide.pdf');
    expect(await hit.locator('.hit-location').textContent()).toBe('page 2');
    expect(await hit.locator('.row-snippet').textContent()).toContain('quokka');
    expect(await page.locator('.list-status').textContent()).toContain('1 result');
  });

  test('opening the document hit shows the page view at that part, marked, and Esc returns to the results', async () => {
    await documentHits().first().click();
    await pageView().waitFor();
    const cited = pageView().locator('.document-part.cited');
    await expect.poll(() => cited.getAttribute('data-chunk-id')).toBe(`d${documentId}c2`);
    expect(await pageView().locator('.document-part.cited').count()).toBe(1);
    expect(await cited.textContent()).toBe('page 2The quokka lives on Rottnest Island.');
    expect(await pageView().getByTestId('document-page-location').textContent()).toBe(' — page 2');
    await page.screenshot({
      path: join(projectRoot, 'test-results', 'screenshots', 'search-document-page.png'),
    });
    await page.keyboard.press('Escape');
    await pageView().waitFor({ state: 'detached' });
    expect(await page.getByTestId('search-input').inputValue()).toBe('quokka');
    expect(await documentHits().count()).toBe(1);
  });

  test('a word in mail and in the document shows both groups, the mail first', async () => {
    await searchMail(page, 'budget');
    expect(await page.getByTestId('search-hit').count()).toBeGreaterThan(0);
    const mailCount = await page.getByTestId('search-hit').count();
    expect(await documentHits().count()).toBe(1);
    expect(await documentHits().first().getAttribute('data-chunk-id')).toBe(`d${documentId}c3`);
    expect(await documentHits().first().locator('.hit-location').textContent()).toBe('page 3');
    // Document order: every mail hit comes before the Documents group.
    const mailFirst = await page.evaluate(() => {
      const group = document.querySelector('[data-testid="search-documents"]');
      const mail = [...document.querySelectorAll('[data-testid="search-hit"]')];
      return (
        group !== null &&
        mail.every((hit) => hit.compareDocumentPosition(group) & Node.DOCUMENT_POSITION_FOLLOWING)
      );
    });
    expect(mailFirst).toBe(true);
    expect(await page.locator('.list-status').textContent()).toContain(`${mailCount + 1} results`);
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'search-documents.png') });
  });

  test('j/k move from the mail hits to the document hit and Enter opens its page', async () => {
    const mailCount = await page.getByTestId('search-hit').count();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < mailCount + 1; i++) await page.keyboard.press('j'); // one past the end stays on the last
    await page.keyboard.press('k');
    await page.keyboard.press('j');
    await expect.poll(() => documentHits().first().getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('[data-testid="search-hit"][aria-selected="true"]').count()).toBe(0);
    await page.keyboard.press('Enter');
    await pageView().waitFor();
    await expect
      .poll(() => pageView().locator('.document-part.cited').getAttribute('data-chunk-id'))
      .toBe(`d${documentId}c3`);
    await page.keyboard.press('Escape');
    await pageView().waitFor({ state: 'detached' });
  });

  test('a mail hit still opens its thread', async () => {
    const hit = page.getByTestId('search-hit').first();
    await hit.click();
    // The hit is marked open in the same render that shows its thread in the reader.
    await expect.poll(() => hit.getAttribute('class')).toMatch(/\bopen\b/);
    expect(await page.getByTestId('message').count()).toBeGreaterThan(0);
    expect(await pageView().count()).toBe(0);
  });

  test('e on a document hit archives nothing, not even the thread open behind the results', async () => {
    // A thread is open in the reader (the test before opened one).
    await page.getByTestId('message').first().waitFor();
    const undoable = async () => (await call(app, 'mail:undoable', { limit: 50 })).map((u) => u.id);
    const before = await undoable();
    await searchMail(page, 'budget');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The same query again: its results may replace the ones shown (and their selection, the hit clicked in the
    // test before) while j is pressed, so j is pressed until the document hit, the last one, is selected (j past
    // the end stays there; the count of presses is the test before's).
    await expect
      .poll(async () => {
        await page.keyboard.press('j');
        return documentHits().first().getAttribute('aria-selected');
      })
      .toBe('true');
    await page.keyboard.press('e');
    await page.keyboard.press('#');
    // Keys are handled in order: once Enter has opened the page view, e and # have been handled too.
    await page.keyboard.press('Enter');
    await pageView().waitFor();
    await page.keyboard.press('Escape');
    await pageView().waitFor({ state: 'detached' });
    expect(await undoable()).toEqual(before);
    expect(await page.getByTestId('message').count()).toBeGreaterThan(0);
  });

  test('a documents search that fails shows its sentence in its group, and the mail hits stay', async () => {
    // The documents' full-text index goes missing under the running app, so `documents:search` fails.
    app.db.exec('ALTER TABLE document_chunks_fts RENAME TO document_chunks_fts_away');
    try {
      await searchMail(page, 'budget');
      expect(await page.getByTestId('search-documents-error').textContent()).toBe(
        'Something went wrong inside Skimmer; the details are in the log.',
      );
      expect(await documentHits().count()).toBe(0);
      expect(await page.getByTestId('search-hit').count()).toBeGreaterThan(0);
    } finally {
      app.db.exec('ALTER TABLE document_chunks_fts_away RENAME TO document_chunks_fts');
    }
  });

  test('nothing left loopback', () => {
    expect(foreign).toEqual([]);
  });
});
