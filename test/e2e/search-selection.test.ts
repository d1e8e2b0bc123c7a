// Selecting search results and acting on them together (DESIGN §12 "Several at once", Gmail's "Select all
// conversations that match this search"): the real server and bridge with the background tasks, imported mail in
// a real SQLite file, the built renderer in Debian's Chromium. A hit selects its whole conversation; Archive
// takes the ticked conversations to Archive and one Undo brings them back; `x` and `s`
// act on the hit at the cursor's conversation; "select all that match" reaches past the 200 hits shown; Esc
// clears the selection first, then the search.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, streamUntil } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { searchMail } from '../support/mail-search.ts';
import { eml, tempDir } from '../support/temp.ts';

const comets = 210; // more messages that match than the 200 hits a search shows
const cometSubject = (n: number) => `Comet sighting ${String(n).padStart(3, '0')}`;
const day = (d: number, hour = 9) => `${d < 10 ? '0' : ''}${d} Dec 2026 ${hour}:00:00 +0000`;

let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const sql = (text: string, ...args: unknown[]) =>
  app.db
    .prepare(text)
    .pluck()
    .all(...args);
const foldersOf = (subject: string) =>
  sql(
    'SELECT DISTINCT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ? ORDER BY 1',
    subject,
  );
const hit = (subject: string): Locator =>
  page.getByTestId('search-hit').filter({ has: page.locator('.row-subject', { hasText: subject }) });
const checkedHits = () =>
  page
    .locator('[data-testid="search-hit"][data-checked="true"] .row-subject')
    .evaluateAll((els) => els.map((el) => el.textContent));
// Keys go to the page, not to the checkbox or button clicked last.
const blur = () => page.locator('body').click({ position: { x: 5, y: 600 } });

beforeAll(async () => {
  const root = tempDir();
  mkdirSync(join(root, 'work'));
  const write = (name: string, text: string) => writeFileSync(join(root, 'work', name), text);
  // "Zephyr budget": two messages, one conversation, both matching; then two conversations of one message.
  write('a1.eml', eml({ id: '<a1@x>', subject: 'Zephyr budget', date: `Tue, ${day(1)}` }));
  write(
    'a2.eml',
    eml({
      id: '<a2@x>',
      subject: 'Re: Zephyr budget',
      date: `Tue, ${day(1, 11)}`,
      inReplyTo: '<a1@x>',
      references: '<a1@x>',
    }),
  );
  write('b.eml', eml({ id: '<b@x>', subject: 'Zephyr launch', date: `Tue, ${day(1, 10)}` }));
  write('c.eml', eml({ id: '<c@x>', subject: 'Zephyr offsite', date: `Tue, ${day(1, 8)}` }));
  write('d.eml', eml({ id: '<d@x>', subject: 'Lunch on Friday', date: `Tue, ${day(1, 7)}` }));
  for (let n = 1; n <= comets; n++) {
    const date = new Date(Date.UTC(2026, 10, 1) + n * 60_000).toUTCString().replace('GMT', '+0000');
    write(`comet${n}.eml`, eml({ id: `<comet${n}@x>`, subject: cometSubject(n), date }));
  }
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const { streamId } = await call(app, 'mail:import', { paths: [root] });
  await streamUntil(app, streamId, ['import_done']);
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 860 } }));
  await page.getByTestId('thread-row').first().waitFor();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
});

describe('selecting search results', () => {
  test('two ticked conversations are archived together, every message of each, and one Undo brings them back', async () => {
    await searchMail(page, 'zephyr');
    // One hit per conversation: the budget's reply stands for both its messages.
    expect(await page.getByTestId('search-hit').count()).toBe(3);
    // Each shows its sender by name, as the list does; the whole From on hover.
    const sender = hit('Zephyr launch').locator('.participants');
    expect([await sender.textContent(), await sender.getAttribute('title')]).toEqual([
      'Alice',
      'Alice <alice@example.com>',
    ]);
    await hit('Re: Zephyr budget').getByTestId('hit-check').click();
    await expect.poll(checkedHits).toEqual(['Re: Zephyr budget']);
    await hit('Zephyr launch').click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
    expect(await hit('Zephyr offsite').getAttribute('data-checked')).toBeNull();

    await page.getByTestId('bulk-archive').click();
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 3 messages');
    expect([foldersOf('Zephyr budget'), foldersOf('Re: Zephyr budget'), foldersOf('Zephyr launch')]).toEqual([
      ['Archive'],
      ['Archive'],
      ['Archive'],
    ]);
    expect(foldersOf('Zephyr offsite')).toEqual(['work']);
    // The selection is spent, and the search ran again: its hits still show (a search looks in Archive too).
    await expect.poll(() => page.getByTestId('selection-count').count()).toBe(0);
    expect(await page.getByTestId('search-hit').count()).toBe(3);

    await page.getByTestId('undo-button').click();
    await expect.poll(() => foldersOf('Zephyr launch')).toEqual(['work']);
    expect([foldersOf('Zephyr budget'), foldersOf('Re: Zephyr budget')]).toEqual([['work'], ['work']]);
  });

  test('x ticks the conversation of the hit at the cursor, and s then stars it, not the cursor alone', async () => {
    await searchMail(page, 'zephyr');
    const starred = (subject: string) => sql('SELECT starred FROM messages WHERE subject = ?', subject);
    await blur();
    // The cursor starts on the first hit, the newest: the reply in "Zephyr budget".
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('k');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
    await page.keyboard.press('s');
    await expect.poll(() => [starred('Re: Zephyr budget'), starred('Zephyr launch')]).toEqual([[1], [1]]);
    expect([starred('Zephyr budget'), starred('Zephyr offsite')]).toEqual([[1], [0]]);
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Starred 3 messages');
    await page.getByTestId('undo-button').click();
    await expect.poll(() => starred('Zephyr launch')).toEqual([0]);
  });

  test('"Select all conversations that match this search" takes more than the hits shown; Mark read marks them all', async () => {
    await searchMail(page, 'comet');
    expect(await page.getByTestId('search-hit').count()).toBe(200);
    const unreadComets = () =>
      sql("SELECT count(*) FROM messages WHERE subject LIKE 'Comet%' AND unread = 1");
    expect(unreadComets()).toEqual([comets]);
    await page.getByTestId('select-shown-hits').check();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('200 selected');
    await page.getByTestId('select-all-matching').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${comets} selected`);
    await page.getByTestId('bulk-read').click();
    await expect.poll(unreadComets).toEqual([0]);
    // What does not match is as it was.
    expect(sql("SELECT unread FROM messages WHERE subject = 'Lunch on Friday'")).toEqual([1]);
    await expect
      .poll(() => page.getByTestId('undo-summary').textContent())
      .toBe(`Marked ${comets} messages read`);
  });

  test('Esc clears the selection first, then the search', async () => {
    await searchMail(page, 'zephyr');
    await hit('Zephyr offsite').getByTestId('hit-check').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 selected');
    await blur();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-count').count()).toBe(0);
    expect(await page.getByTestId('search-hit').count()).toBe(3);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(0);
    await page.getByTestId('thread-row').first().waitFor();
  });

  test('a Shift-click takes the hits between; Esc in the search box clears that selection, not the search', async () => {
    await searchMail(page, 'zephyr');
    await hit('Re: Zephyr budget').getByTestId('hit-check').click();
    await hit('Zephyr offsite').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('3 selected');
    await page.getByTestId('search-input').press('Escape');
    await expect.poll(() => page.getByTestId('selection-count').count()).toBe(0);
    expect(await page.getByTestId('search-hit').count()).toBe(3);
  });

  test('a new search clears the selection made in the last one', async () => {
    await searchMail(page, 'zephyr');
    await hit('Zephyr offsite').getByTestId('hit-check').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 selected');
    await searchMail(page, 'lunch');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
    expect(await page.getByTestId('selection-count').count()).toBe(0);
    expect(foreign).toEqual([]);
  });
});
