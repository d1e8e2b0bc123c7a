// "Summarize thread" end to end (issue 7): the real server and bridge, the built renderer in Debian's Chromium,
// the demo mailbox, and a local server speaking OpenAI Chat Completions (non-streaming) that cites the first
// two sources it was given. What it proves (DESIGN §10, §12): the reader shows the answer with one chip per
// citation and the "checked to exist" label; a chip scrolls to and marks its message; the same thread is
// answered again from the cache without a request; an answer citing what the thread does not hold is
// Skimmer's sentence with Retry, never answer text; and nothing leaves loopback.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type CitingModel, startCitingModel } from '../support/citing-model.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

// The model cites the first two sources it was given (test/support/citing-model.ts).
const citeFirstTwo = (ids: string[]) => ids.slice(0, 2);
let model: CitingModel;
const requests = () => model.received.length;
const cited = () => model.received.at(-1)?.cited ?? [];

beforeAll(async () => {
  await importDemo(app);
  model = await startCitingModel((c) => `Point one [${c[0]}]. Point two [${c[1]}].`);
  model.cite = citeFirstTwo;
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await model?.close();
});

// Whether the element's top is within the reader pane's visible part.
function inReaderView(selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    const pane = document.querySelector('.reader-pane');
    if (!el || !pane) return false;
    const box = el.getBoundingClientRect();
    const view = pane.getBoundingClientRect();
    return box.top >= view.top - 1 && box.top < view.bottom;
  }, selector);
}

// The thread the first test summarizes.
let summarized = 0;

describe('Summarize thread', () => {
  test('answers with a chip per citation and says what the citations prove', async () => {
    await page.getByTestId('thread-row').first().waitFor();
    const shown = await page
      .getByTestId('thread-row')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-thread-id'))));
    const long = new Set(
      app.db.prepare('SELECT id FROM threads WHERE message_count >= 2').pluck().all() as number[],
    );
    const threadId = shown.find((id) => long.has(id));
    expect(threadId).toBeDefined();
    summarized = threadId ?? 0;
    await page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`).click();
    await expect.poll(() => page.getByTestId('message').count()).toBeGreaterThanOrEqual(2);

    await page.getByTestId('summary-model').fill('local/test-model');
    await page.getByTestId('summary-start').click();
    await page.getByTestId('summary-answer').waitFor();
    expect(requests()).toBe(1);
    const chips = page.getByTestId('summary-cite');
    expect(await chips.count()).toBe(2);
    expect(await chips.allTextContents()).toEqual(['message 1', 'message 2']);
    expect(await page.getByTestId('summary-answer').textContent()).toBe(
      'Point one message 1. Point two message 2.',
    );
    expect(await page.getByTestId('summary-label').textContent()).toBe(
      'Citations were checked to exist in this thread, not checked to be true.',
    );
    expect(await page.getByTestId('summary-cached').count()).toBe(0);
  });

  test('a chip scrolls to its message and marks it', async () => {
    const second = cited()[1]?.slice(1);
    const card = `[data-testid="message"][data-message-id="${second}"]`;
    const scrolled = () => page.locator('.reader-pane').evaluate((pane) => pane.scrollTop);
    expect(await scrolled()).toBe(0);
    await page.getByTestId('summary-cite').nth(1).click();
    await expect.poll(() => page.locator(card).getAttribute('class')).toContain('cited');
    await expect.poll(() => inReaderView(card)).toBe(true);
    expect(await page.locator('.message.cited').count()).toBe(1);
    expect(await scrolled()).toBeGreaterThan(0);
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'summary-cited.png') });
  });

  test('the same thread is answered again from the cache, without a request', async () => {
    await page.getByTestId('summary-start').click();
    await page.getByTestId('summary-cached').waitFor();
    expect(await page.getByTestId('summary-cached').textContent()).toContain(
      'From earlier (the thread has not changed)',
    );
    expect(await page.getByTestId('summary-cite').count()).toBe(2);
    expect(requests()).toBe(1);
  });

  test('reopening the thread shows its stored summary without asking the model', async () => {
    const other = await page
      .getByTestId('thread-row')
      .evaluateAll(
        (rows, open) => rows.map((r) => Number(r.getAttribute('data-thread-id'))).find((id) => id !== open),
        summarized,
      );
    await page.locator(`[data-testid="thread-row"][data-thread-id="${other}"]`).click();
    await expect.poll(() => page.getByTestId('summary-answer').count()).toBe(0);
    await page.locator(`[data-testid="thread-row"][data-thread-id="${summarized}"]`).click();
    await page.getByTestId('summary-answer').waitFor();
    expect(await page.getByTestId('summary-answer').textContent()).toContain('Point one');
    expect(await page.getByTestId('summary-cached').count()).toBe(1);
    expect(requests()).toBe(1);
  });

  test('Refresh with an answer citing what the thread does not hold shows the sentence and Retry only', async () => {
    // An answer citing an id the thread does not hold.
    model.cite = (ids) => ['m999999', ids[0] as string];
    await page.getByTestId('summary-refresh').click();
    await page.getByTestId('summary-error').waitFor();
    expect(requests()).toBe(2);
    expect((await page.getByTestId('summary-error-message').textContent())?.length).toBeGreaterThan(10);
    expect(await page.getByTestId('summary-retry').isVisible()).toBe(true);
    expect(await page.getByTestId('summary-answer').count()).toBe(0);
    expect(await page.getByTestId('summary-cite').count()).toBe(0);
    expect(await page.getByTestId('summary-panel').textContent()).not.toContain('Point one');
  });

  test('Retry asks again and shows the answer once the model cites the thread', async () => {
    model.cite = citeFirstTwo;
    await page.getByTestId('summary-retry').click();
    await page.getByTestId('summary-answer').waitFor();
    expect(requests()).toBe(3);
    expect(await page.getByTestId('summary-cite').count()).toBe(2);
    expect(await page.getByTestId('summary-error').count()).toBe(0);
  });

  test('Esc stops a question while Skimmer waits for the model, and nothing is shown as an answer', async () => {
    model.hold = true;
    await page.getByTestId('summary-question').fill('When is the budget due?');
    await page.getByTestId('summary-question').press('Enter');
    await page.getByTestId('summary-running').waitFor();
    expect(await page.getByTestId('summary-running').textContent()).toContain('Summarising…');
    await expect.poll(() => model.waiting()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('summary-stopped').waitFor();
    // Skimmer confirmed the stop (the page did not just give up waiting).
    expect(await page.getByTestId('summary-stopped').textContent()).toBe('Stopped.');
    expect(await page.getByTestId('summary-running').count()).toBe(0);
    expect(await page.getByTestId('summary-answer').count()).toBe(0);
    expect(await page.getByTestId('summary-error').count()).toBe(0);
    model.hold = false;
    model.release();
  });

  test('asks the question about the thread and shows the answer with it', async () => {
    await page.getByTestId('summary-ask').click();
    await page.getByTestId('summary-answer').waitFor();
    expect(model.received.at(-1)?.question).toContain('When is the budget due?');
    expect(await page.getByTestId('summary-question-shown').textContent()).toBe(
      'Asked: When is the budget due?',
    );
    expect(await page.getByTestId('summary-cite').count()).toBe(2);
    expect(await page.getByTestId('summary-cached').count()).toBe(0);
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
