// The list ordered by a triage answer over the whole view (issue 17, DESIGN §9, §12), end to end: the real
// server and bridge, the built renderer in Debian's Chromium, 230 conversations (more than the list's first
// window of 200) answered by a local server speaking the OpenAI Decisions shape, whose answers make the oldest
// mail the most urgent: the very opposite of the list's own order. What it proves: sorted by the question,
// the list starts with the oldest conversation, which the first window of the Inbox does not hold, and scrolls
// to the newest one at its end; the note says it covers the whole view; a filter keeps the choice it names
// across every window; j opens the next row of this order and e takes it out (Undo puts it back); nothing
// leaves loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, streamUntil } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const notes = 230; // more than the list's first window of 200 rows
const subjectOf = (n: number) => `Note ${String(n).padStart(3, '0')}`;
// The long-running app, as `skimmer serve` runs it: the ordering on its own thread.
const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let asked = 0;

// Note n is urgent with probability (1000 − n) / 1000, and its team is billing when n is odd.
const decisions: Server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  asked += 1;
  const body = JSON.parse(raw) as { model: string; input: string };
  const n = Number(/Subject: Note (\d+)/.exec(body.input)?.[1] ?? 0);
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${asked}` });
  res.end(
    JSON.stringify({
      model: body.model,
      answers: [
        { type: 'predicate', name: 'urgent', probability: (1000 - n) / 1000 },
        { type: 'choice', name: 'team', choice: n % 2 === 1 ? 'billing' : 'technical' },
      ],
    }),
  );
});

beforeAll(async () => {
  const root = tempDir();
  mkdirSync(join(root, 'work'));
  for (let n = 1; n <= notes; n++) {
    const date = new Date(Date.UTC(2026, 10, 1) + n * 60_000).toUTCString().replace('GMT', '+0000');
    writeFileSync(join(root, 'work', `${n}.eml`), eml({ id: `<note${n}@x>`, subject: subjectOf(n), date }));
  }
  const imported = await call(app, 'mail:import', { paths: [root] });
  await streamUntil(app, imported.streamId, ['import_done']);
  await new Promise<void>((resolve) => decisions.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(decisions.address() as AddressInfo).port}/v1`;
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: base });
  const set = await call(app, 'judge:saveSet', {
    name: 'Ops',
    questions: [
      { type: 'predicate', name: 'urgent', instructions: 'Does this need action today?' },
      {
        type: 'choice',
        name: 'team',
        instructions: 'Which team should answer?',
        choices: [{ value: 'billing' }, { value: 'technical' }],
      },
    ],
  });
  const run = await call(app, 'triage:start', {
    setId: set.id,
    model: 'dec/gpt-6-luna',
    scope: { kind: 'all' },
  });
  const events = await streamUntil(app, run.streamId, ['triage_done']);
  expect(events.at(-1)).toMatchObject({ type: 'triage_done', job: { state: 'done', done: notes } });
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  decisions.closeAllConnections();
  await new Promise((resolve) => decisions.close(resolve));
});

const ordered = (): Locator => page.getByTestId('ordered-thread-list').getByTestId('thread-row');
const subjects = (rows: Locator) => rows.locator('.row-subject').allTextContents();

describe('the list ordered by a triage answer', () => {
  test('sorts every conversation of the Inbox by the question, not the first window only', async () => {
    // The Inbox's own order: the newest first, so its first window ends at note 31.
    await page.getByTestId('thread-row').first().waitFor();
    expect(await page.getByTestId('thread-row').first().locator('.row-subject').textContent()).toBe(
      subjectOf(notes),
    );
    await page.getByTestId('triage-order').waitFor();
    await page.getByTestId('triage-sort').selectOption({ value: 'urgent' });
    await ordered().first().waitFor();
    await expect.poll(async () => (await subjects(ordered())).slice(0, 3)).toEqual([1, 2, 3].map(subjectOf));
    await expect
      .poll(() => page.getByTestId('triage-order-note').textContent())
      .toBe(`From every conversation in this view: ${notes} with answers for Ops.`);
    await page.screenshot({
      path: join(projectRoot, 'test-results', 'screenshots', 'triage-ordered-whole-view.png'),
    });
  });

  test('scrolls to the least urgent, the newest, at the end: the second window is read as the list scrolls', async () => {
    const list = page.getByTestId('ordered-thread-list');
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(async () => (await subjects(ordered())).at(-1)).toBe(subjectOf(notes));
    const shown = await subjects(ordered());
    const numbers = shown.map((s) => Number(s.slice(5)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    await list.evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(async () => (await subjects(ordered()))[0]).toBe(subjectOf(1));
  });

  test('a filter keeps the named choice over every window, still sorted', async () => {
    await page.getByTestId('triage-filter').selectOption({ label: 'team: technical' });
    await expect.poll(async () => (await subjects(ordered())).slice(0, 3)).toEqual([2, 4, 6].map(subjectOf));
    await expect
      .poll(() => page.getByTestId('triage-order-note').textContent())
      .toBe(`From every conversation in this view: ${notes / 2} with answers for Ops.`);
    await expect
      .poll(() => ordered().locator('[data-testid="answer-chip"][data-question="team"]').allTextContents())
      .toEqual(expect.arrayContaining(['technical']));
    expect(
      await ordered().locator('[data-testid="answer-chip"][data-question="team"]').allTextContents(),
    ).not.toContain('billing');
  });

  test('j opens the next conversation of this order; e archives it and the next one opens, Undo brings it back', async () => {
    const open = () => page.locator('.thread-row.open .row-subject').textContent();
    await ordered().first().click();
    await expect.poll(open).toBe(subjectOf(2));
    await page.keyboard.press('j');
    await expect.poll(open).toBe(subjectOf(4));
    // The ordering was kept on its thread; the archive changed the mail, so it is read again without note 4.
    await page.keyboard.press('e');
    await expect.poll(open).toBe(subjectOf(6));
    await expect.poll(async () => (await subjects(ordered())).slice(0, 3)).toEqual([2, 6, 8].map(subjectOf));
    await page.getByTestId('undo-button').click();
    await expect.poll(async () => (await subjects(ordered())).slice(0, 3)).toEqual([2, 4, 6].map(subjectOf));
    await page.getByTestId('triage-filter').selectOption({ label: 'All' });
    await page.getByTestId('triage-sort').selectOption({ label: 'Newest first' });
    await expect.poll(() => page.getByTestId('ordered-thread-list').count()).toBe(0);
  });

  test('asked each message once, and made no request outside loopback', () => {
    expect(asked).toBe(notes);
    expect(foreign).toEqual([]);
  });
});
