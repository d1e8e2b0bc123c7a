// Gmail's search operators typed into the search box (issue 16), end to end: the real server and bridge, the demo
// mailbox with a star, a label and a message in Trash set through the bridge, the built renderer in Debian's
// Chromium. What it proves: for every operator the list shows exactly what the mailbox answers — checked against
// the stored rows themselves (SQL over the messages table, not the search code) — one row per conversation, newest
// first; and an operator Skimmer does not know shows a sentence naming it, never "0 results".
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { searchMail } from '../support/mail-search.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
const day = 24 * 3600 * 1000;

const ids = (sql: string, ...args: unknown[]) =>
  app.db
    .prepare(sql)
    .pluck()
    .all(...args) as number[];
// The threads of the messages a condition picks, outside Trash and Spam, newest message first: the oracle.
function threadsWhere(condition: string, ...args: unknown[]): number[] {
  return ids(
    `SELECT m.thread_id FROM messages m JOIN folders f ON f.id = m.folder_id
      WHERE ${condition} AND f.source NOT IN ('skimmer:trash', 'skimmer:spam')
      GROUP BY m.thread_id ORDER BY max(m.date) DESC, m.thread_id DESC`,
    ...args,
  );
}
const shownThreads = () =>
  page
    .getByTestId('search-hit')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-thread-id'))));

let trashedThread = 0;
let starredThread = 0;
let labelledThread = 0;

beforeAll(async () => {
  await importDemo(app);
  const threads = ids('SELECT id FROM threads ORDER BY last_date DESC');
  [starredThread = 0, labelledThread = 0, trashedThread = 0] = [threads[1], threads[3], threads[5]];
  const messagesOf = (t: number) => ids('SELECT id FROM messages WHERE thread_id = ?', t);
  await call(app, 'mail:star', { ids: messagesOf(starredThread), starred: true });
  await call(app, 'mail:bulk', {
    selection: { scope: { view: 'all' }, threads: [labelledThread] },
    action: { kind: 'label', add: ['Project X'], remove: [] },
  });
  await call(app, 'mail:trash', { ids: messagesOf(trashedThread) });
  await call(app, 'mail:markRead', { ids: messagesOf(threads[0] ?? 0), read: true });
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('search operators in the search box', () => {
  test.each([
    ['is:unread', () => threadsWhere('m.unread = 1')],
    ['is:read', () => threadsWhere('m.unread = 0')],
    ['is:starred', () => threadsWhere('m.starred = 1')],
    ['has:attachment', () => threadsWhere('m.has_attachments = 1')],
    ['before:2026-11-15', () => threadsWhere('m.date < ?', new Date(2026, 10, 15).getTime())],
    ['after:2026/11/20', () => threadsWhere('m.date >= ?', new Date(2026, 10, 20).getTime())],
    ['older_than:2w', () => threadsWhere('m.date < ?', Date.now() - 14 * day)],
    ['newer_than:1y', () => threadsWhere('m.date >= ?', Date.now() - 365 * day)],
    [
      'label:"Project X"',
      () =>
        threadsWhere(
          'm.id IN (SELECT ml.message_id FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE l.name = ?)',
          'Project X',
        ),
    ],
    ['cc:sofia', () => threadsWhere("lower(m.cc_json) LIKE '%sofia%'")],
    ['from:fatima is:unread', () => threadsWhere("lower(m.from_text) LIKE '%fatima%' AND m.unread = 1")],
  ])('%s lists exactly the conversations the mailbox answers, newest first', async (query, expected) => {
    const answer = expected();
    // Each query has conversations to find here, so an empty list could not pass for a right one.
    expect(answer.length).toBeGreaterThan(0);
    await searchMail(page, query);
    expect(await shownThreads()).toEqual(answer.slice(0, 200));
  });

  test('in:trash lists only Trash, and the trashed conversation nowhere else', async () => {
    await searchMail(page, 'in:trash');
    expect(await shownThreads()).toEqual([trashedThread]);
    await searchMail(page, 'is:read OR is:unread');
    expect(await shownThreads()).not.toContain(trashedThread);
  });

  test('an operator Skimmer does not know is a sentence naming it, not an empty list', async () => {
    const box = page.getByTestId('search-input');
    await box.fill('larger:5M invoice');
    await box.press('Enter');
    const alert = page.locator('.list-error[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('larger:');
    expect(await page.locator('.list-status').textContent()).not.toMatch(/^0 results/);
    expect(foreign).toEqual([]);
  });
});
