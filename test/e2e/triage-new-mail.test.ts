// A question set on new mail (issue 17, DESIGN §9), end to end: the long-running app (browser mode with its
// background work), the built renderer in Debian's Chromium, and a local server speaking the OpenAI Decisions
// shape. What it proves: the Triage dialog turns it on for a set with the model in its field and shows the cost
// per 100 messages first; a service off this computer without consent for mail is refused with Skimmer's
// sentence and stays off; mail imported afterwards gets one job over exactly those messages, which reaches the
// open dialog on the page's watch, and the mail that was there before is not asked about; nothing leaves
// loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { type DecisionServer, startDecisionServer } from '../../fixtures/judge/decision-server.ts';
import { call, streamUntil } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
let decisions: DecisionServer;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
const mailRoot = tempDir();
let setId = 0;

async function importMail(folder: string, subjects: string[]): Promise<void> {
  mkdirSync(join(mailRoot, folder));
  for (const [i, subject] of subjects.entries()) {
    writeFileSync(join(mailRoot, folder, `${i}.eml`), eml({ id: `<${folder}${i}@x>`, subject }));
  }
  const { streamId } = await call(app, 'mail:import', { paths: [join(mailRoot, folder)] });
  await streamUntil(app, streamId, ['import_done']);
}

beforeAll(async () => {
  await importMail('before', ['Old one', 'Old two', 'Old three']);
  decisions = await startDecisionServer({ rpm: 60_000, latencyMs: [1, 5] });
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: decisions.base });
  await call(app, 'service:add', {
    name: 'far',
    kind: 'decisions',
    baseUrl: 'https://decisions.example.com/v1',
  });
  setId = (
    await call(app, 'judge:saveSet', {
      name: 'Ops',
      questions: [{ type: 'predicate', name: 'urgent', instructions: 'Does this need action today?' }],
    })
  ).id;
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 1200 },
    colorScheme: 'light',
  }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await decisions?.close();
});

const dialog = (): Locator => page.getByTestId('triage-dialog');
const toggle = (): Locator => page.getByTestId('triage-new-mail-toggle');

async function openTriage(model: string): Promise<void> {
  await page.getByTestId('triage-open').click();
  await dialog().waitFor();
  await page.getByTestId('triage-set').selectOption({ label: 'Ops' });
  await page.getByTestId('triage-model').fill(model);
}

describe('a question set on new mail', () => {
  test('is refused for a service without consent for mail, with Skimmer’s sentence, and stays off', async () => {
    await page.getByTestId('thread-row').first().waitFor();
    await openTriage('far/gpt-6-luna');
    await toggle().click();
    await expect
      .poll(() => page.getByTestId('triage-new-mail-error').textContent())
      .toMatch(/has not sent mail to/);
    expect(await toggle().isChecked()).toBe(false);
    expect((await call(app, 'judge:sets', {})).find((s) => s.id === setId)?.newMail).toBeNull();
  });

  test('is turned on with the model in the field, after the cost per 100 messages is shown', async () => {
    await page.getByTestId('triage-model').fill('dec/gpt-6-luna');
    await page.getByTestId('triage-scope-all').check();
    await expect
      .poll(() => page.getByTestId('triage-new-mail-estimate').textContent())
      .toMatch(/^About [\d,]+ input tokens per 100 new messages\.$/);
    await toggle().click();
    await expect.poll(() => page.getByTestId('triage-new-mail-model').textContent()).toBe('dec/gpt-6-luna');
    expect(await toggle().isChecked()).toBe(true);
    await page.getByTestId('triage-new-mail').screenshot({
      path: join(projectRoot, 'test-results', 'screenshots', 'triage-new-mail.png'),
    });
    await page.getByTestId('triage-close').click();
    expect(decisions.answered.size).toBe(0);
  });

  test('mail imported afterwards gets one job over exactly those messages, listed in the open dialog', async () => {
    await openTriage('dec/gpt-6-luna');
    const jobsBefore = await page.getByTestId('triage-job').count();
    await importMail('after', ['New one', 'New two']);
    await expect
      .poll(async () => (await call(app, 'triage:jobs', {}))[0]?.state, { timeout: 30_000 })
      .toBe('done');
    const [job] = await call(app, 'triage:jobs', {});
    expect(job).toMatchObject({
      setId,
      model: 'dec/gpt-6-luna',
      scope: { kind: 'new_mail', messages: 2 },
      done: 2,
    });
    // Only the new mail was asked about: every input the server answered names a new subject.
    const inputs = [...decisions.answered.keys()];
    expect(inputs).toHaveLength(2);
    expect(inputs.every((input) => /Subject: New (one|two)/.test(input))).toBe(true);
    // The dialog was open all along: the job reached it on the page's watch, started and then done.
    await expect.poll(() => page.getByTestId('triage-job').count()).toBe(jobsBefore + 1);
    expect(await page.getByTestId('triage-job').first().textContent()).toContain('2 new messages');
    await expect.poll(() => page.getByTestId('triage-job').first().getAttribute('data-state')).toBe('done');
    await page.getByTestId('triage-close').click();
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
