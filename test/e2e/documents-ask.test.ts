// Questions over documents and a selection of messages, end to end (issue 7): the real server and bridge, the
// built renderer in Debian's Chromium, the demo mailbox, a PDF made by the test and imported through the
// bridge, and a local server speaking OpenAI Chat Completions that cites the first message and every document
// part it was given. What it proves (DESIGN §10, §12): "this thread + these documents" sends the matching page
// and answers with a document chip; the chip opens the document's page view scrolled to the cited part, marked,
// with its page; "Ask about selection" sends exactly the chosen messages, from two threads; "Ask about these
// documents" in the Documents dialog answers with the same label and opens the page over the dialog; the same
// question again is answered from the cache, marked, and Refresh asks the model again; nothing leaves loopback.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type CitingModel, startCitingModel } from '../support/citing-model.ts';
import { makePdf } from '../support/documents.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let documentId = 0;
let manualId = 0;

// The model cites the first message and every document part it was given (test/support/citing-model.ts), and
// records what it was sent each time.
let model: CitingModel;
const received = () => model.received;

beforeAll(async () => {
  await importDemo(app);
  model = await startCitingModel();
  model.cite = (ids) => [
    ...ids.filter((id) => id.startsWith('m')).slice(0, 1),
    ...ids.filter((id) => id.startsWith('d')),
  ];
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
  const pdf = join(tempDir('skimmer-ask-docs-'), 'handbook.pdf');
  writeFileSync(
    pdf,
    await makePdf(['Welcome to the handbook.', 'Travel expenses are refunded within 30 days.', 'Holidays.']),
  );
  // A long one, whose cited page is far down the page view.
  const manual = join(tempDir('skimmer-ask-docs-'), 'manual.pdf');
  writeFileSync(
    manual,
    await makePdf(
      Array.from({ length: 40 }, (_, i) => (i === 32 ? 'The warranty lasts two years.' : `Page ${i + 1}.`)),
    ),
  );
  [documentId, manualId] = (await call(app, 'documents:import', { paths: [pdf, manual] })).imported.map(
    (d) => d.id,
  ) as [number, number];
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await model?.close();
});

// The shown threads that hold two messages or more, in list order.
async function longThreads(): Promise<number[]> {
  await page.getByTestId('thread-row').first().waitFor();
  const shown = await page
    .getByTestId('thread-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-thread-id'))));
  const long = new Set(
    app.db.prepare('SELECT id FROM threads WHERE message_count >= 2').pluck().all() as number[],
  );
  return shown.filter((id) => long.has(id));
}

async function openThread(threadId: number): Promise<void> {
  await page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`).click();
  await expect
    .poll(() => page.getByTestId('message').first().getAttribute('data-message-id'))
    .toBe(String(app.db.prepare('SELECT min(id) FROM messages WHERE thread_id = ?').pluck().get(threadId)));
}

describe('Ask about this thread and these documents', () => {
  test('sends the page that matches the question and answers with a chip for it', async () => {
    const [threadId] = await longThreads();
    expect(threadId).toBeDefined();
    await openThread(threadId as number);
    await page.getByTestId('summary-model').fill('local/test-model');
    await page.getByTestId('summary-add-document').selectOption({ label: 'handbook.pdf' });
    await expect.poll(() => page.getByTestId('summary-document').textContent()).toContain('handbook.pdf');
    await page.getByTestId('summary-question').fill('How soon are travel expenses refunded?');
    await page.getByTestId('summary-ask').click();
    await page.getByTestId('summary-answer').waitFor();

    const sent = received().at(-1);
    expect(sent?.question).toBe('How soon are travel expenses refunded?');
    expect(sent?.ids).toContain(`d${documentId}c2`);
    expect(sent?.ids).not.toContain(`d${documentId}c1`);
    expect(sent?.system).toMatch(/<untrusted_email source="source:d\d+c2"[\s\S]*refunded within 30 days/);
    const chip = page.locator(`[data-testid="summary-cite"][data-document-id="${documentId}"]`);
    expect(await chip.textContent()).toBe('handbook.pdf, page 2');
    expect(await page.getByTestId('summary-label').textContent()).toBe(
      'Citations were checked to exist in the chosen messages and documents, not checked to be true.',
    );
  });

  test('the document chip opens the page view at the cited part, marked, with its page', async () => {
    await page.locator(`[data-testid="summary-cite"][data-document-id="${documentId}"]`).click();
    const view = page.getByTestId('document-page');
    await view.waitFor();
    const cited = view.locator(`[data-testid="document-part"][data-chunk-id="d${documentId}c2"]`);
    await expect.poll(() => cited.getAttribute('class')).toContain('cited');
    expect(await view.locator('.document-part.cited').count()).toBe(1);
    expect(await cited.textContent()).toBe('page 2Travel expenses are refunded within 30 days.');
    expect(await view.getByTestId('document-page-location').textContent()).toBe(' — page 2');
    expect(await view.locator('h2').textContent()).toContain('handbook.pdf');
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'document-page.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
  });
});

describe('Ask about selection', () => {
  test('sends exactly the two chosen messages, from two threads', async () => {
    const [first, second] = await longThreads();
    expect(second).toBeDefined();
    await page.getByTestId('summary-document-remove').click();
    await openThread(first as number);
    const one = page.getByTestId('message').nth(1);
    const a = Number(await one.getAttribute('data-message-id'));
    await one.getByTestId('message-select').check();
    await openThread(second as number);
    const other = page.getByTestId('message').first();
    const b = Number(await other.getAttribute('data-message-id'));
    // The keyboard works too: Space on the focused box checks it.
    await other.getByTestId('message-select').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('summary-selected').count()).toBe(2);

    await page.getByTestId('summary-question').fill('What do these two say?');
    const asked = received().length;
    await page.getByTestId('summary-ask-selection').click();
    await expect.poll(() => received().length).toBe(asked + 1);
    await page.getByTestId('summary-answer').waitFor();
    expect(received().at(-1)?.ids.sort()).toEqual([`m${a}`, `m${b}`].sort());
    expect(received().at(-1)?.question).toBe('What do these two say?');
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'ask-selection.png') });
  });
});

describe('Ask about these documents', () => {
  test('answers in the Documents dialog, and a chip opens the page over it', async () => {
    await page.getByTestId('documents-open').click();
    const dialog = page.getByTestId('documents-dialog');
    await dialog.waitFor();
    await dialog.locator(`[data-testid="document-row"][data-document-id="${documentId}"]`).waitFor();
    await dialog
      .locator(`[data-testid="document-row"][data-document-id="${documentId}"]`)
      .getByTestId('document-select')
      .check();
    await dialog.getByTestId('documents-ask-question').fill('When are travel expenses refunded?');
    await dialog.getByTestId('documents-ask').click();
    await dialog.getByTestId('summary-answer').waitFor();
    expect(received().at(-1)?.ids).toEqual([`d${documentId}c2`]);
    expect(await dialog.getByTestId('summary-label').textContent()).toBe(
      'Citations were checked to exist in the chosen messages and documents, not checked to be true.',
    );
    await dialog.getByTestId('summary-cite').click();
    const view = page.getByTestId('document-page');
    await view.waitFor();
    await expect
      .poll(() => view.locator('.document-part.cited').getAttribute('data-chunk-id'))
      .toBe(`d${documentId}c2`);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test('the same question again shows the cached answer with its mark, and Refresh asks the model again', async () => {
    await page.getByTestId('documents-open').click();
    const dialog = page.getByTestId('documents-dialog');
    await dialog.waitFor();
    const before = received().length;
    await dialog.getByTestId('documents-ask-question').fill('When are travel expenses refunded?');
    await dialog.getByTestId('documents-ask').click();
    await dialog.getByTestId('summary-cached').waitFor();
    expect(await dialog.getByTestId('summary-cached').textContent()).toContain(
      'From earlier (the messages and documents asked about have not changed)',
    );
    expect(await dialog.getByTestId('summary-cite').textContent()).toBe('handbook.pdf, page 2');
    expect(received().length).toBe(before);

    await dialog.getByTestId('summary-refresh').click();
    await expect.poll(() => received().length).toBe(before + 1);
    await dialog.getByTestId('summary-answer').waitFor();
    await expect.poll(() => dialog.getByTestId('summary-cached').count()).toBe(0);
    expect(received().at(-1)?.ids).toEqual([`d${documentId}c2`]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test('Esc stops a question in the Documents dialog, and the next Esc closes the dialog', async () => {
    model.hold = true;
    await page.getByTestId('documents-open').click();
    const dialog = page.getByTestId('documents-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('documents-ask-question').fill('Which holidays are there?');
    await dialog.getByTestId('documents-ask').click();
    await dialog.getByTestId('summary-running').waitFor();
    await expect.poll(() => model.waiting()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.getByTestId('summary-stopped').waitFor();
    // Skimmer confirmed the stop (the page did not just give up waiting), and the dialog stays.
    expect(await dialog.getByTestId('summary-stopped').textContent()).toBe('Stopped.');
    expect(await dialog.getByTestId('summary-answer').count()).toBe(0);
    expect(await dialog.isVisible()).toBe(true);
    model.hold = false;
    model.release();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test('in a long document the page view scrolls to the cited part', async () => {
    await page.getByTestId('summary-add-document').selectOption({ label: 'manual.pdf' });
    await page.getByTestId('summary-question').fill('How long is the warranty?');
    await page.getByTestId('summary-ask').click();
    const chip = page.locator(`[data-testid="summary-cite"][data-document-id="${manualId}"]`);
    await chip.waitFor();
    expect(await chip.textContent()).toBe('manual.pdf, page 33');
    await chip.click();
    const view = page.getByTestId('document-page');
    const cited = view.locator(`[data-chunk-id="d${manualId}c33"]`);
    await expect.poll(() => cited.getAttribute('class')).toContain('cited');
    await expect.poll(() => view.getByTestId('document-part').count()).toBe(40);
    // The dialog scrolled down to it, and it is inside the dialog's visible part.
    await expect.poll(() => view.evaluate((d) => d.scrollTop)).toBeGreaterThan(0);
    const [part, box] = await Promise.all([cited.boundingBox(), view.boundingBox()]);
    expect(part && box && part.y >= box.y && part.y + part.height <= box.y + box.height).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
