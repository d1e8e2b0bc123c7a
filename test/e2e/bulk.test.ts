// Several conversations at once in the page (issue 16, DESIGN §11–§12 "Several at once"): the real server and
// bridge with the background sync, a real Dovecot on loopback, the built renderer in Debian's Chromium. Three
// conversations selected with x, Shift-click and Ctrl-click are archived together and one Undo brings all three
// back; "Select all N conversations in this view" takes more than the loaded rows; Esc clears a selection; a
// label is created by hand in the picker; `v` moves a conversation to a picked folder, and to Archive and back to
// the Inbox for imported mail that had neither; `!` takes an IMAP message to Junk on the server and Not spam
// brings it back to INBOX, both seen by a second IMAP client.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, streamUntil } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { eml, tempDir } from '../support/temp.ts';
import { waitUntil } from '../support/wait-until.ts';

const notes = 230; // more than the list's first window of 200 rows
const noteSubject = (n: number) => `Note ${String(n).padStart(3, '0')}`;
const serverPoll = { timeout: 30_000, interval: 250 };

let server: Dovecot;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

const row = (subject: string): Locator =>
  page.getByTestId('thread-row').filter({ has: page.locator('.row-subject', { hasText: subject }) });
const listed = (subject: string) => row(subject).count();
// The mail keys are the page's once the focus is on it, not in a field or the message's own frame: a click on the
// reader's subject puts it there wherever the sidebar's folders have moved to.
const focusPage = () => page.locator('h1.thread-subject').click();
const sql = (text: string, ...args: unknown[]) =>
  app.db
    .prepare(text)
    .pluck()
    .get(...args);
const folderOf = (subject: string) =>
  sql('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ?', subject);

/** The mailboxes a second IMAP client finds the message in. */
async function mailboxesOf(messageId: string): Promise<string[]> {
  const client = await server.client();
  try {
    const found: string[] = [];
    for (const box of ['INBOX', 'Junk', 'Archive', 'Trash']) {
      await client.mailboxOpen(box, { readOnly: true });
      const uids = (await client.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
      if (uids.length > 0) found.push(box);
    }
    return found;
  } finally {
    await client.logout();
  }
}

beforeAll(async () => {
  server = await startDovecot({ junk: true });
  // Newer than every imported note, so they head the Inbox.
  await server.append('INBOX', [
    eml({
      id: '<litware@example.com>',
      subject: 'Invoice from Litware',
      date: 'Tue, 01 Dec 2026 09:00:00 +0000',
    }),
    eml({ id: '<agenda@example.com>', subject: 'Offsite agenda', date: 'Tue, 01 Dec 2026 08:00:00 +0000' }),
  ]);
  const root = tempDir();
  mkdirSync(join(root, 'work'));
  mkdirSync(join(root, 'Projects'));
  for (let n = 1; n <= notes; n++) {
    const date = new Date(Date.UTC(2026, 10, 1) + n * 60_000).toUTCString().replace('GMT', '+0000');
    writeFileSync(join(root, 'work', `${n}.eml`), eml({ id: `<note${n}@x>`, subject: noteSubject(n), date }));
  }
  writeFileSync(
    join(root, 'Projects', 'plan.eml'),
    eml({ id: '<plan@x>', subject: 'Project plan', date: 'Sun, 01 Mar 2026 09:00:00 +0000' }),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  const { streamId } = await call(app, 'mail:import', { paths: [root] });
  await streamUntil(app, streamId, ['import_done']);
  await call(app, 'account:add', {
    name: 'work-imap',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
  });
  // The background sync's first round brings the account's INBOX.
  await waitUntil(
    () => sql("SELECT count(*) FROM messages WHERE message_id = '<litware@example.com>'") === 1,
    serverPoll,
    'the account did not sync',
  );
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
  }));
  await row('Invoice from Litware').waitFor();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await server?.stop();
});

describe('Several conversations at once', () => {
  test('x, Shift-click and Ctrl-click select three; Archive takes all three out; one Undo brings them back', async () => {
    const [a, b, c] = [noteSubject(230), noteSubject(229), noteSubject(227)];
    await row(a).click();
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('x');
    await row(b).click({ modifiers: ['Shift'] });
    await row(c).click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('3 selected');
    for (const s of [a, b, c]) expect(await row(s).getAttribute('data-checked')).toBe('true');
    expect(await row(noteSubject(228)).getAttribute('data-checked')).toBeNull();
    await page.screenshot({ path: screenshotPath('selection.png') });

    // The list is read again in place after the change: it never shows no rows on the way (a flash), which a
    // watcher of every change to the list records.
    await page.evaluate(() => {
      const w = window as unknown as { fewestRows: number; rowsBefore: number };
      const count = () => document.querySelectorAll('[data-testid="thread-row"]').length;
      w.rowsBefore = count();
      w.fewestRows = w.rowsBefore;
      new MutationObserver(() => {
        w.fewestRows = Math.min(w.fewestRows, count());
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByTestId('bulk-archive').click();
    await expect
      .poll(async () => [
        (await listed(a)) + (await listed(b)) + (await listed(c)),
        await listed(noteSubject(228)),
      ])
      .toEqual([0, 1]);
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 3 messages');
    // The selection is spent; the toolbar is gone.
    expect(await page.getByTestId('selection-count').count()).toBe(0);

    await page.getByTestId('undo-button').click();
    await expect.poll(async () => (await listed(a)) + (await listed(b)) + (await listed(c))).toBe(3);
    expect([folderOf(a), folderOf(b), folderOf(c)]).toEqual(['work', 'work', 'work']);
    // The rows on screen (the list draws those in view): never fewer than before but for the three archived.
    const { fewestRows, rowsBefore } = await page.evaluate(() => {
      const w = window as unknown as { fewestRows: number; rowsBefore: number };
      return { fewestRows: w.fewestRows, rowsBefore: w.rowsBefore };
    });
    expect(rowsBefore).toBeGreaterThan(10);
    expect(fewestRows).toBeGreaterThanOrEqual(rowsBefore - 3);
  });

  test('with conversations checked, s stars them all and e archives them all, as one Undo entry each', async () => {
    const [a, b] = [noteSubject(225), noteSubject(224)];
    const starred = (subject: string) => sql('SELECT max(starred) FROM messages WHERE subject = ?', subject);
    await row(a).getByTestId('row-check').click();
    await row(b).getByTestId('row-check').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('s');
    await expect.poll(() => [starred(a), starred(b)]).toEqual([1, 1]);
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Starred 2 messages');
    // The batch spent the selection: check them again, then e.
    await row(a).getByTestId('row-check').click();
    await row(b).getByTestId('row-check').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('2 selected');
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('e');
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 2 messages');
    await expect.poll(async () => (await listed(a)) + (await listed(b))).toBe(0);
    expect([folderOf(a), folderOf(b)]).toEqual(['Archive', 'Archive']);
    // The conversation at the cursor was not archived on its own beside them.
    expect(await listed(noteSubject(226))).toBe(1);
    await page.getByTestId('undo-button').click();
    await expect.poll(async () => (await listed(a)) + (await listed(b))).toBe(2);
  });

  test('Esc clears the selection', async () => {
    await row(noteSubject(226)).getByTestId('row-check').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 selected');
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-count').count()).toBe(0);
  });

  test('"Select all" takes every conversation of the view, more than the loaded rows', async () => {
    const total = notes + 3;
    const unreadBefore = sql('SELECT count(*) FROM messages WHERE unread = 1') as number;
    expect(unreadBefore).toBeGreaterThan(200);
    await page.getByTestId('select-loaded').check();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('200 selected');
    await page.getByTestId('select-all-in-view').click();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe(`${total} selected`);
    await page.getByTestId('bulk-read').click();
    await expect.poll(() => sql('SELECT count(*) FROM messages WHERE unread = 1')).toBe(0);
    await expect
      .poll(() => page.getByTestId('undo-summary').textContent())
      .toBe(`Marked ${unreadBefore} messages read`);
    await page.getByTestId('undo-button').click();
    await expect.poll(() => sql('SELECT count(*) FROM messages WHERE unread = 1')).toBe(unreadBefore);
  });

  test('a label created by hand in the picker is on the conversation, and the picker shows it ticked', async () => {
    const subject = noteSubject(225);
    await row(subject).click();
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('l');
    const picker = page.getByTestId('label-picker');
    await picker.getByTestId('label-filter').fill('Receipts');
    await picker.getByTestId('label-create').click();
    await expect.poll(() => picker.count()).toBe(0);
    const labelled = `SELECT l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id
       JOIN messages m ON m.id = ml.message_id WHERE m.subject = ?`;
    await expect.poll(() => sql(labelled, subject)).toBe('Receipts');

    await page.keyboard.press('l');
    await expect
      .poll(() =>
        picker.getByTestId('label-option').filter({ hasText: 'Receipts' }).getAttribute('data-check'),
      )
      .toBe('all');
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.count()).toBe(0);
  });

  test('v moves the conversation to the folder typed in the picker, undoably', async () => {
    const subject = noteSubject(224);
    await row(subject).click();
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('v');
    await page.getByTestId('move-filter').fill('proj');
    await expect.poll(() => page.getByTestId('move-option').allTextContents()).toEqual(['Projects']);
    await page.getByTestId('move-filter').press('Enter');
    await expect.poll(() => folderOf(subject)).toBe('Projects');
    await expect
      .poll(() => page.getByTestId('undo-summary').textContent())
      .toBe('Moved 1 message to Projects');
    await page.getByTestId('undo-button').click();
    await expect.poll(() => folderOf(subject)).toBe('work');
  });

  test('! takes an IMAP conversation to Junk on the server, and Not spam brings it back to INBOX', async () => {
    await row('Invoice from Litware').click();
    await page.getByTestId('thread-spam').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 600 } });
    await page.keyboard.press('!');
    await expect.poll(() => listed('Invoice from Litware')).toBe(0);
    await expect.poll(() => folderOf('Invoice from Litware')).toBe('Junk');
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Marked 1 message as spam');
    await expect.poll(() => mailboxesOf('<litware@example.com>'), serverPoll).toEqual(['Junk']);
    // Auto-advance, as after `e`: the next conversation opens.
    await expect.poll(() => page.locator('[data-testid="thread-row"].open').count()).toBe(1);

    await page.getByTestId('search-input').fill('in:spam Litware');
    await page.getByTestId('search-input').press('Enter');
    await page.getByTestId('search-hit').filter({ hasText: 'Invoice from Litware' }).click();
    const button = page.getByTestId('thread-spam');
    await expect.poll(() => button.textContent()).toBe('Not spam');
    await button.click();
    const path = `SELECT i.path FROM messages m JOIN imap_folders i ON i.folder_id = m.folder_id
       WHERE m.subject = ?`;
    await expect.poll(() => sql(path, 'Invoice from Litware')).toBe('INBOX');
    await expect.poll(() => mailboxesOf('<litware@example.com>'), serverPoll).toEqual(['INBOX']);
  });

  test('v offers the places before the folders: Archive before anything was archived, and back to the Inbox', async () => {
    const subject = noteSubject(223);
    // Back from the search the test before ended in, to the Inbox's list.
    await page.getByTestId('search-input').press('Escape');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(0);
    await expect.poll(() => listed(subject)).toBe(1);
    await row(subject).click();
    await expect
      .poll(() => page.locator('[data-testid="thread-row"].open .row-subject').textContent())
      .toBe(subject);
    await focusPage();
    await page.keyboard.press('v');
    // In the Inbox, the places but the Inbox itself.
    await expect
      .poll(() => page.getByTestId('move-place').allTextContents())
      .toEqual(['Archive', 'Spam', 'Trash']);
    // The account's own INBOX and Junk are those places, not folders listed again below them.
    const folders = await page.getByTestId('move-option').allTextContents();
    expect(folders).toContain('Projects');
    expect(folders).not.toContain('INBOX');
    expect(folders).not.toContain('Junk');
    await page.getByTestId('move-filter').fill('arch');
    await expect.poll(() => page.getByTestId('move-place').allTextContents()).toEqual(['Archive']);
    await page.getByTestId('move-filter').press('Enter');
    await expect.poll(() => folderOf(subject)).toBe('Archive');
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 1 message');
    await expect.poll(() => listed(subject)).toBe(0);

    await page.getByTestId('search-input').fill(`in:archive "${subject}"`);
    await page.getByTestId('search-input').press('Enter');
    await page.getByTestId('search-hit').filter({ hasText: subject }).click();
    await expect.poll(() => page.locator('h1.thread-subject').textContent()).toBe(subject);
    await focusPage();
    await page.keyboard.press('v');
    // A search lists conversations from every place: all four are offered.
    await expect
      .poll(() => page.getByTestId('move-place').allTextContents())
      .toEqual(['Inbox', 'Archive', 'Spam', 'Trash']);
    await page.getByTestId('move-filter').fill('inb');
    await page.getByTestId('move-filter').press('Enter');
    await expect.poll(() => folderOf(subject)).toBe('Inbox');
    await expect
      .poll(() => page.getByTestId('undo-summary').textContent())
      .toBe('Moved 1 message to the Inbox');
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
