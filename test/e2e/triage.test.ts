// Triage end to end (issue 6): the real server and bridge, the built renderer in Debian's Chromium, the demo
// mailbox, and a local server speaking the OpenAI Decisions shape that answers every request alike (urgent
// 0.91, team billing, frustration 1.7 of 0–2). What it proves (DESIGN §9, §12): the Triage dialog shows the
// estimate before anything is asked, a run asks once per message and reports progress to done, the thread
// list then shows the answers as chips with the exact figures on hover, a second run asks nothing again
// (answers are cached by message, questions and model), and nothing leaves loopback.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

// As the desktop app and `serve` run it: jobs on the triage thread, slow reads on the read thread (DESIGN §3).
const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
let judge: ReplayServer;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let messages = 0;

// A second Decisions service that answers the first requests at once and holds the rest until `opened`,
// so a run is surely under way when Stop is pressed.
const allTypes = readFileSync(join(judgeDir, 'decisions', 'all-types.body'));
const answeredAtOnce = 8;
let slowRequests = 0;
let opened = false;
const held: (() => void)[] = [];
const slowServer: Server = createServer(async (req, res) => {
  for await (const _ of req);
  slowRequests += 1;
  const reply = () => {
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(allTypes);
  };
  if (opened || slowRequests <= answeredAtOnce) reply();
  else held.push(reply);
});

beforeAll(async () => {
  await importDemo(app);
  messages = (await call(app, 'app:info', {})).messages;
  judge = await startReplayServer();
  judge.serve({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
  });
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: judge.base });
  await call(app, 'judge:saveSet', { name: 'Support', questions });
  await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
  const slowBase = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/v1`;
  await call(app, 'service:add', { name: 'slow', kind: 'decisions', baseUrl: slowBase });
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
  slowServer.closeAllConnections();
  await new Promise((resolve) => slowServer.close(resolve));
});

const dialog = (): Locator => page.getByTestId('triage-dialog');

async function openTriage(model = 'dec/gpt-6-luna'): Promise<void> {
  await page.getByTestId('triage-open').click();
  await dialog().waitFor();
  await page.getByTestId('triage-set').selectOption({ label: 'Support' });
  await page.getByTestId('triage-model').fill(model);
  await page.getByTestId('triage-scope-all').check();
}

// Starts a run and waits for it to end: the new job heads the list (newest first) and is done. The jobs before
// it are Skimmer's count, not the page's: the dialog may still be reading its list when the run starts.
async function runToDone(): Promise<void> {
  const before = (await call(app, 'triage:jobs', {})).length;
  await page.getByTestId('triage-start').click();
  await expect.poll(() => page.getByTestId('triage-job').count()).toBe(before + 1);
  await expect
    .poll(() => page.getByTestId('triage-job').first().getAttribute('data-state'), { timeout: 60_000 })
    .toBe('done');
  await expect.poll(() => page.getByTestId('triage-progress').getAttribute('data-state')).toBe('done');
}

describe('Triage', () => {
  test('shows the estimate for the demo mailbox before anything is asked, priced when a price was entered', async () => {
    expect(messages).toBeGreaterThan(10);
    const dec = (await call(app, 'service:list', {})).find((s) => s.name === 'dec');
    await call(app, 'service:price', { id: dec?.id ?? 0, inputPrice: 2.5 });
    await page.getByTestId('thread-row').first().waitFor();
    await openTriage();
    await expect
      .poll(() => page.getByTestId('triage-estimate').textContent())
      .toMatch(
        new RegExp(
          `^${messages.toLocaleString('en-US')} messages, about [\\d,]+ input tokens, about .+, about (\\$\\d+\\.\\d\\d|less than \\$0\\.01) at the price you entered$`,
        ),
      );
    expect(judge.received).toHaveLength(0);
  });

  test('asks once per message, reports progress to done, and lists the job', async () => {
    await runToDone();
    await expect
      .poll(() => page.getByTestId('triage-progress-text').textContent())
      .toContain(`${messages.toLocaleString('en-US')} of ${messages.toLocaleString('en-US')}`);
    expect(judge.received).toHaveLength(messages);
    expect(judge.received.every((r) => r.method === 'POST')).toBe(true);
    const job = page.getByTestId('triage-job').first();
    expect(await job.getAttribute('data-state')).toBe('done');
    expect(await job.textContent()).toContain('dec/gpt-6-luna');
    await dialog().screenshot({
      path: join(projectRoot, 'test-results', 'screenshots', 'triage-dialog.png'),
    });
  });

  test('shows the answers as chips in the thread list, the exact figures on hover', async () => {
    await page.getByTestId('triage-close').click();
    const row = page.getByTestId('thread-row').first();
    const chip = (name: string): Locator =>
      row.locator(`[data-testid="answer-chip"][data-question="${name}"]`);
    await chip('team').waitFor();
    expect(await chip('team').textContent()).toBe('billing');
    expect(await chip('team').getAttribute('title')).toContain('probability 0.94');
    expect(await chip('frustration').textContent()).toBe('frustration 1.7/2');
    expect(await chip('frustration').getAttribute('title')).toContain('nearest: Angry');
    expect(await chip('urgent').textContent()).toBe('● urgent');
    expect(await chip('urgent').getAttribute('title')).toBe('urgent: probability 0.91');
    // Every loaded row on screen has them: the answers come for the visible threads.
    const rows = await page.getByTestId('thread-row').count();
    await expect
      .poll(() => page.locator('[data-testid="answer-chip"][data-question="team"]').count())
      .toBe(rows);
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'triage-chips.png') });
  });

  test('filters and sorts the conversations of the view by their answers, and says it is all of them', async () => {
    const rows = await page.getByTestId('thread-row').count();
    await page.getByTestId('triage-filter').selectOption({ label: 'team: technical' });
    await page.getByText('No conversation here has answers that match.').waitFor();
    await expect
      .poll(() => page.getByTestId('triage-order-note').textContent())
      .toBe('From every conversation in this view: 0 with answers for Support.');
    await page.getByTestId('triage-filter').selectOption({ label: 'team: billing' });
    await page.getByTestId('ordered-thread-list').waitFor();
    await page.getByTestId('triage-sort').selectOption({ value: 'frustration' });
    // Every answer is alike here, so every loaded row passes and keeps its place.
    await expect.poll(() => page.getByTestId('thread-row').count()).toBeGreaterThan(10);
    const shown = await page.getByTestId('thread-row').count();
    expect(shown).toBeLessThanOrEqual(rows + 2);
    await expect
      .poll(() => page.locator('[data-testid="answer-chip"][data-question="team"]').allTextContents())
      .toEqual(Array(shown).fill('billing'));
    // The keys act on the ordered rows: j opens the next one shown here.
    const ordered = page.getByTestId('ordered-thread-list').getByTestId('thread-row');
    const first = await ordered.first().getAttribute('data-thread-id');
    await ordered.first().click();
    // j moves from the open row: wait until the click has opened it, and read its neighbour then.
    await expect.poll(() => page.locator('.thread-row.open').getAttribute('data-thread-id')).toBe(first);
    const second = await ordered.nth(1).getAttribute('data-thread-id');
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('.thread-row.open').getAttribute('data-thread-id')).toBe(second);
    // e takes the open row out of the Inbox: the row after it in this order opens; Undo brings it back.
    const third = await ordered.nth(2).getAttribute('data-thread-id');
    const orderedIds = () => ordered.evaluateAll((els) => els.map((el) => el.getAttribute('data-thread-id')));
    await page.keyboard.press('e');
    await expect.poll(() => page.locator('.thread-row.open').getAttribute('data-thread-id')).toBe(third);
    expect(await orderedIds()).not.toContain(second);
    await page.getByTestId('undo-button').click();
    await expect.poll(orderedIds).toContain(second);
    await page.getByTestId('triage-filter').selectOption({ label: 'All' });
    await page.getByTestId('triage-sort').selectOption({ label: 'Newest first' });
    await expect.poll(() => page.getByTestId('ordered-thread-list').count()).toBe(0);
  });

  test('a second run over the same mail asks nothing again', async () => {
    await openTriage();
    await runToDone();
    expect(judge.received).toHaveLength(messages);
    expect(await page.getByTestId('triage-job').count()).toBe(2);
  });

  test('Stop pauses a run and keeps what is done; Resume finishes it without asking that again', async () => {
    await page.getByTestId('triage-close').click();
    await openTriage('slow/gpt-6-luna');
    await page.getByTestId('triage-start').click();
    const progress = page.getByTestId('triage-progress');
    await expect.poll(() => progress.getAttribute('data-state')).toBe('running');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('triage-progress-text').textContent())
      .toMatch(new RegExp(`^${answeredAtOnce} of ${messages} done`));
    expect(await page.getByTestId('triage-progress-text').textContent()).toMatch(/a second/);
    // The job's row in Recent jobs counts along with the bar.
    await expect
      .poll(() => page.getByTestId('triage-job').first().textContent())
      .toContain(`running · ${answeredAtOnce} of ${messages}`);

    await page.getByTestId('triage-stop').click();
    await expect.poll(() => progress.getAttribute('data-state')).toBe('paused');
    await expect.poll(() => page.getByTestId('triage-job').first().getAttribute('data-state')).toBe('paused');
    const jobs = await call(app, 'triage:jobs', {});
    expect(jobs[0]).toMatchObject({ state: 'paused', done: answeredAtOnce, total: messages });
    const askedBeforeResume = slowRequests;

    const inFlightAtStop = held.length;
    opened = true;
    for (const reply of held.splice(0)) reply();
    // The answers on their way at Stop come in and are kept; once the run has ended the page counts them, in
    // its line and in the job's row.
    const kept = answeredAtOnce + inFlightAtStop;
    await expect
      .poll(() => page.getByTestId('triage-progress-text').textContent())
      .toMatch(new RegExp(`^paused · ${kept} of ${messages}`));
    await expect
      .poll(() => page.getByTestId('triage-job').first().textContent())
      .toContain(`${kept} of ${messages}`);
    await page.getByTestId('triage-resume').click();
    await expect.poll(() => progress.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    const finished = (await call(app, 'triage:jobs', {}))[0];
    expect(finished).toMatchObject({ state: 'done', total: messages, done: messages, failed: 0 });
    expect(inFlightAtStop).toBeGreaterThan(0);
    // What was answered before Stop, and the requests in flight at Stop (answered after it, and kept), were
    // not asked again: Resume asked only the rest.
    expect(slowRequests - askedBeforeResume).toBe(messages - answeredAtOnce - inFlightAtStop);
  });

  test('edits a question set and shows Skimmer’s sentence when it refuses one', async () => {
    await page.getByTestId('set-new').click();
    const editor = page.getByTestId('set-editor');
    await page.getByTestId('set-name').fill('Mood');
    await editor.getByTestId('set-question-type').first().selectOption('score');
    await editor.getByTestId('set-question-name').first().fill('mood');
    await editor.getByTestId('set-question-instructions').first().fill('How cheerful is the sender?');
    await editor.getByTestId('set-question-lines').first().fill('Gloomy');
    await page.getByTestId('set-save').click();
    // The rule is the main process's (2–10 levels); its sentence shows as is.
    await expect.poll(() => page.getByTestId('set-error').textContent()).toMatch(/level/i);
    expect((await call(app, 'judge:sets', {})).map((s) => s.name)).not.toContain('Mood');

    await editor.getByTestId('set-question-lines').first().fill('Gloomy\nCheerful — Thanks and smileys.');
    await page.getByTestId('set-save').click();
    await expect.poll(() => page.getByTestId('set-editor').count()).toBe(0);
    const saved = (await call(app, 'judge:sets', {})).find((s) => s.name === 'Mood');
    expect(saved?.questions).toEqual([
      {
        type: 'score',
        name: 'mood',
        instructions: 'How cheerful is the sender?',
        levels: [{ label: 'Gloomy' }, { label: 'Cheerful', description: 'Thanks and smileys.' }],
      },
    ]);
    await expect.poll(() => page.getByTestId('triage-set').inputValue()).toBe(String(saved?.id));
    // A set nothing has answered yet: no chips, and nothing was asked.
    await page.getByTestId('triage-close').click();
    await expect.poll(() => page.getByTestId('answer-chip').count()).toBe(0);
    expect(judge.received).toHaveLength(messages);
  });

  test('adds the starter questions for a user who saved a set of their own first', async () => {
    await page.getByTestId('triage-open').click();
    await dialog().waitFor();
    await page.getByTestId('set-starters').click();
    const added = async () => (await call(app, 'judge:sets', {})).find((s) => s.name === 'Triage');
    await expect.poll(async () => (await added())?.questions.length).toBe(5);
    await expect.poll(() => page.getByTestId('triage-set').inputValue()).toBe(String((await added())?.id));
    await expect
      .poll(() => page.getByTestId('triage-question-names').textContent())
      .toContain('urgency (score)');
    await page.getByTestId('triage-close').click();
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
