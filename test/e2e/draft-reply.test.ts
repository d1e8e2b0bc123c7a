// "Draft reply" end to end (issue 17): the real server and bridge, the built renderer in Debian's Chromium, the
// demo mailbox, and a local Chat Completions server citing the first two messages it is given, with an amount
// no message holds. What it proves (DESIGN §12, "Drafted replies"): the reader's "Draft reply" opens the drafted
// reply in the composer with a chip per citation, the [id] marks out of the body; the made-up amount is flagged
// "not found in the messages cited" and the flag goes when the user edits it out; a chip marks its message in the
// reader; the composer's "Draft with AI" sends the user's instructions; nothing leaves loopback.
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
let model: CitingModel;

beforeAll(async () => {
  await importDemo(app);
  model = await startCitingModel(
    (c) => `Thanks, that works [${c[0]}]. We can add $99,999 for the extras [${c[1]}].\n\nBest`,
  );
  model.cite = (ids) => ids.slice(0, 2);
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await model?.close();
});

const body = (p: Page) => p.getByTestId('composer-body');

async function openLongThread(): Promise<void> {
  await page.getByTestId('thread-row').first().waitFor();
  const shown = await page
    .getByTestId('thread-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-thread-id'))));
  const long = new Set(
    app.db.prepare('SELECT id FROM threads WHERE message_count >= 2').pluck().all() as number[],
  );
  const threadId = shown.find((id) => long.has(id));
  await page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`).click();
  // Read messages before the last show collapsed to a line (reader/thread-open-state.ts): count both.
  await expect
    .poll(() => page.locator('[data-testid="message"], [data-testid="message-collapsed"]').count())
    .toBeGreaterThanOrEqual(2);
}

describe('Draft reply', () => {
  test('asks for a model when none is chosen, naming where to choose one', async () => {
    await openLongThread();
    await page.getByTestId('message-draft-reply').last().click();
    await page.getByTestId('message-draft-error').waitFor();
    expect(await page.getByTestId('message-draft-error').textContent()).toMatch(/^Choose a model/);
    expect(model.received.length).toBe(0);
  });

  test('opens the drafted reply with chips, and flags the made-up amount until it is edited out', async () => {
    await page.getByTestId('summary-model').fill('local/test-model');
    await page.getByTestId('message-draft-reply').last().click();
    await page.getByTestId('composer-citation').first().waitFor();
    expect(await page.getByTestId('composer-citation').count()).toBe(2);
    const text = await body(page).inputValue();
    expect(text).toMatch(/^Thanks, that works\. We can add \$99,999 for the extras\.\n\nBest\n/);
    expect(text).not.toMatch(/\[m\d+\]/);
    expect(await page.getByTestId('composer-unverified-item').allTextContents()).toEqual([
      '$99,999: not found in the messages cited',
    ]);
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'draft-reply.png') });

    await body(page).fill(text.replace(' We can add $99,999 for the extras.', ''));
    await expect.poll(() => page.getByTestId('composer-unverified-item').count()).toBe(0);
    await body(page).fill(`Make it 1,234,567.\n${text}`);
    await expect
      .poll(() => page.getByTestId('composer-unverified-item').allTextContents())
      .toEqual(['1,234,567: not found in the messages cited', '$99,999: not found in the messages cited']);
  });

  test('a chip marks its message in the reader', async () => {
    const chip = page.getByTestId('composer-citation').first();
    const messageId = await chip.getAttribute('data-message-id');
    await chip.click();
    await expect
      .poll(() => page.locator(`[data-testid="message"][data-message-id="${messageId}"].cited`).count())
      .toBe(1);
  });

  test('after a reload the drafted reply opens again with its chips, and its body is checked again', async () => {
    const written = await body(page).inputValue();
    // The composer has saved what was typed (its autosave), so the reload finds it.
    await expect.poll(() => page.getByTestId('composer-save-state').textContent()).toMatch(/Saved/);
    await page.reload();
    await page.getByTestId('composer-citation').first().waitFor();
    expect(await page.getByTestId('composer-citation').count()).toBe(2);
    expect(await body(page).inputValue()).toBe(written);
    await expect
      .poll(() => page.getByTestId('composer-unverified-item').allTextContents())
      .toEqual(['1,234,567: not found in the messages cited', '$99,999: not found in the messages cited']);
    // The reload left the reader empty and its model field as new; the next test answers in the same thread.
    await openLongThread();
    await page.getByTestId('summary-model').fill('local/test-model');
  });

  test("the composer's Draft with AI sends the instructions and opens the new draft", async () => {
    await page.getByTestId('composer-close').click();
    await expect.poll(() => page.getByTestId('composer').count()).toBe(0);
    await page.getByTestId('message-reply').last().click();
    await page.getByTestId('composer-instructions').waitFor();
    const before = model.received.length;
    await page.getByTestId('composer-instructions').fill('decline politely');
    await page.getByTestId('composer-draft-ai').click();
    await page.getByTestId('composer-citation').first().waitFor();
    expect(model.received.length).toBe(before + 1);
    expect(model.received.at(-1)?.question).toBe('Draft my reply. My instructions: decline politely');
    expect(await body(page).inputValue()).toMatch(/^Thanks, that works\./);
    expect(foreign).toEqual([]);
  });
});
