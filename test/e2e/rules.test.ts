// Triage rules end to end (issue 6, DESIGN §9): the real server and bridge, the built renderer in Debian's
// Chromium, the demo mailbox answered by a local Decisions server (every message: urgent 0.91). What it
// proves: a rule written in the Triage dialog previews every answered message on the batch card, Apply now
// writes only the messages left checked, a second preview lists only what is still to change, the Undo bar
// takes those writes back, the rules stay with their set
// across a reload, and nothing leaves loopback (Suggest and Apply read cached answers only).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { type ReplayServer, startReplayServer } from '../../fixtures/judge/replay-server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const judgeDir = join(projectRoot, 'fixtures', 'judge');
const questions = JSON.parse(readFileSync(join(judgeDir, 'questions', 'support.json'), 'utf8'));

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let judge: ReplayServer;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let answered = 0;

// Runs the set over all mail through the bridge and resolves with the job's total when it is done.
async function triageAll(setId: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let streamId: string | null = null;
    let total: number | null = null;
    const check = () => {
      if (total === null) return;
      off();
      resolve(total);
    };
    const off = app.streams.listen((m) => {
      if (m.event.type !== 'triage_done' || (streamId !== null && m.streamId !== streamId)) return;
      total = m.event.job.done;
      check();
    });
    call(app, 'triage:start', { setId, model: 'dec/gpt-6-luna', scope: { kind: 'all' } }).then((started) => {
      streamId = started.streamId;
      check();
    }, reject);
  });
}

const labelled = (name: string): number =>
  app.db
    .prepare('SELECT count(*) FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE l.name = ?')
    .pluck()
    .get(name) as number;

const labelsOf = (messageId: number): string[] =>
  app.db
    .prepare(
      'SELECT l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE ml.message_id = ?',
    )
    .pluck()
    .all(messageId) as string[];

beforeAll(async () => {
  await importDemo(app);
  judge = await startReplayServer();
  judge.serve({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
  });
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: judge.base });
  const set = await call(app, 'judge:saveSet', { name: 'Support', questions });
  answered = await triageAll(set.id);
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 1400 },
    colorScheme: 'light',
  }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await judge?.close();
});

const rules = (): Locator => page.getByTestId('triage-rules');

async function openTriage(): Promise<void> {
  await page.getByTestId('triage-open').click();
  await page.getByTestId('triage-dialog').waitFor();
  await page.getByTestId('triage-set').selectOption({ label: 'Support' });
  await page.getByTestId('triage-scope-all').check();
}

describe('Triage rules', () => {
  test('suggests every answered message for “urgent probability at least 0.9 → label Urgent”', async () => {
    expect(answered).toBeGreaterThan(10);
    await page.getByTestId('thread-row').first().waitFor();
    await openTriage();
    await rules().getByTestId('rule-question').selectOption('urgent');
    await expect.poll(() => rules().getByTestId('rule-op').inputValue()).toBe('probability_at_least');
    // A probability above 1 is no rule: Add waits for one the question can meet.
    await rules().getByTestId('rule-value').fill('1.5');
    await rules().getByTestId('rule-target').fill('Urgent');
    await expect.poll(() => rules().getByTestId('rule-add').isDisabled()).toBe(true);
    await rules().getByTestId('rule-value').fill('0.9');
    await rules().getByTestId('rule-action').selectOption('label');
    await rules().getByTestId('rule-target').fill('Urgent');
    await rules().getByTestId('rule-add').click();
    await expect
      .poll(() => rules().getByTestId('rule').allTextContents())
      .toEqual([expect.stringContaining('urgent probability at least 0.9 → label “Urgent”')]);
    const asked = judge.received.length;
    await rules().getByTestId('rule-suggest').click();
    await rules().getByTestId('rule-card').waitFor();
    await expect
      .poll(() => rules().getByTestId('rule-suggestion').locator('h4').textContent())
      .toBe(`Label “Urgent” · ${answered} messages`);
    await expect.poll(() => rules().getByTestId('rule-message').count()).toBe(answered);
    expect(await rules().locator('[data-testid="rule-message"] input:checked').count()).toBe(answered);
    await page.getByTestId('triage-dialog').screenshot({
      path: join(projectRoot, 'test-results', 'screenshots', 'triage-rules-card.png'),
    });
    // Suggest reads cached answers only.
    expect(judge.received).toHaveLength(asked);
    expect(labelled('Urgent')).toBe(0);
  });

  test('Approve labels only the checked messages, and the Undo bar takes the labels back', async () => {
    const first = rules().getByTestId('rule-message').first();
    const skipped = Number(await first.getAttribute('data-message-id'));
    await first.locator('input').uncheck();
    await rules().getByTestId('rule-approve').click();
    await expect
      .poll(() => rules().getByTestId('rule-applied').textContent())
      .toBe(`Applied to ${answered - 1} messages`);
    await expect.poll(() => rules().getByTestId('rule-card').count()).toBe(0);
    expect(labelled('Urgent')).toBe(answered - 1);
    expect(labelsOf(skipped)).toEqual([]);
    // The preview shows what the rule would still change: only the message left unchecked.
    expect(await rules().getByTestId('rule-suggest').textContent()).toBe('Preview changes');
    await rules().getByTestId('rule-suggest').click();
    await expect
      .poll(() => rules().getByTestId('rule-suggestion').locator('h4').textContent())
      .toBe('Label “Urgent” · 1 message');
    expect(await rules().getByTestId('rule-message').getAttribute('data-message-id')).toBe(String(skipped));
    await rules().getByTestId('rule-cancel').click();

    await page.getByTestId('triage-close').click();
    await page.getByTestId('undo-summary').waitFor();
    await page.getByTestId('undo-button').click();
    await page.getByTestId('undo-done').waitFor();
    await expect.poll(() => labelled('Urgent')).toBe(0);
  });

  test('keeps the rules of the set across a reload', async () => {
    await page.reload();
    await page.getByTestId('thread-row').first().waitFor();
    await openTriage();
    await expect
      .poll(() => rules().getByTestId('rule').allTextContents())
      .toEqual([expect.stringContaining('label “Urgent”')]);
  });

  test('a score rule archives: “frustration score at least 1.5 → Archive”, and Undo brings the mail back', async () => {
    const folderCount = (name: string): number =>
      app.db
        .prepare('SELECT count(*) FROM messages m JOIN folders f ON f.id = m.folder_id WHERE f.name = ?')
        .pluck()
        .get(name) as number;
    // The label rule goes first, so the card holds only the new rule.
    await rules().getByTestId('rule-remove').click();
    await expect.poll(() => rules().getByTestId('rule').count()).toBe(0);
    await rules().getByTestId('rule-question').selectOption('frustration');
    await rules().getByTestId('rule-op').selectOption('score_at_least');
    await rules().getByTestId('rule-value').fill('1.5');
    await rules().getByTestId('rule-action').selectOption('archive');
    await rules().getByTestId('rule-add').click();
    await expect
      .poll(() => rules().getByTestId('rule').allTextContents())
      .toEqual([expect.stringContaining('frustration')]);
    await rules().getByTestId('rule-suggest').click();
    await rules().getByTestId('rule-card').waitFor();
    // Every answered message scored 1.7 (fixtures/judge/decisions/all-types.body).
    await expect
      .poll(() => rules().getByTestId('rule-suggestion').locator('h4').textContent())
      .toBe(`Archive · ${answered} messages`);
    expect(folderCount('Archive')).toBe(0);
    await rules().getByTestId('rule-approve').click();
    await expect
      .poll(() => rules().getByTestId('rule-applied').textContent())
      .toBe(`Applied to ${answered} messages`);
    expect(folderCount('Archive')).toBe(answered);
    await page.getByTestId('triage-close').click();
    await page.getByTestId('undo-button').click();
    await page.getByTestId('undo-done').waitFor();
    await expect.poll(() => folderCount('Archive')).toBe(0);
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
