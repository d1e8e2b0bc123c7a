// The grouped folder list and the views across accounts and imports (issue 16), in Debian's Chromium against a
// real Dovecot on loopback, the real server and bridge with the background sync, and imported mail. What it
// proves: the views come first in Gmail's order, then the account's folders under its name and the import's
// under the folder it came from, no two entries alike, a collapsed group stays collapsed across a reload;
// Starred lists a starred conversation and Sent the sent mail of the account and the import; going to another
// folder closes a reader showing a conversation from elsewhere; g then t / i go to Sent and the Inbox; in Starred, e
// archives and the conversation stays listed, # trashes it out; Drafts lists the local drafts and opens one; Your
// addresses adds an address, gives it a signature that a reply made afterwards carries, and removes it after
// asking, while the account's own address is marked and has no Remove; nothing leaves loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { eml, tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const user = 'test@example.com';
const password = 'secret';
const syncPoll = { timeout: 30_000, interval: 250 };

let server: Dovecot;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

// A message to one of the addresses the test adds, so that a reply to it goes out from that address.
const toHome = [
  'From: Carol <carol@example.org>',
  'To: Me <me@home.example>',
  'Subject: Dinner on Saturday',
  'Date: Fri, 27 Nov 2026 18:00:00 +0000',
  'Message-ID: <dinner@example.org>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Are you free?',
  '',
].join('\r\n');

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [
    eml({ id: '<hello@server>', subject: 'Server hello', date: 'Sun, 29 Nov 2026 09:00:00 +0000' }),
  ]);
  await server.append('Sent', [
    eml({
      id: '<note@server>',
      subject: 'Server sent note',
      from: `Test <${user}>`,
      date: 'Sat, 28 Nov 2026 09:00:00 +0000',
    }),
  ]);
  const exported = join(tempDir(), 'export');
  const put = (folder: string, name: string, text: string) => {
    mkdirSync(join(exported, folder), { recursive: true });
    writeFileSync(join(exported, folder, `${name}.eml`), text);
  };
  put(
    'work',
    'lunch',
    eml({ id: '<lunch@x>', subject: 'Imported lunch', date: 'Thu, 26 Nov 2026 12:00:00 +0000' }),
  );
  put('work', 'dinner', toHome);
  put(
    'Sent',
    'reply',
    eml({ id: '<reply@x>', subject: 'Imported sent reply', from: 'Me <me@home.example>' }),
  );

  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  await app.importFiles([exported], () => {}).done;
  await call(app, 'account:add', {
    name: 'dovecot',
    user,
    password,
    imap: { host: server.host, port: server.port, tls: 'none' },
  });
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
  }));
  // The account's mail arrives through its background sync, and shows without a reload.
  await threadRow('Server hello').waitFor({ timeout: syncPoll.timeout });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await server?.stop();
});

const threadRow = (subject: string): Locator => page.getByTestId('thread-row').filter({ hasText: subject });
const threadSubjects = () => page.getByTestId('thread-row').locator('.row-subject').allTextContents();
const group = (title: string): Locator =>
  page.getByTestId('folders-group').filter({
    has: page.locator('.folder-group-name', { hasText: new RegExp(`^${title}$`) }),
  });
const entry = (groupTitle: string, name: string): Locator =>
  group(groupTitle)
    .locator('[data-testid^="folder-"].folder')
    .filter({ has: page.locator('.folder-name', { hasText: new RegExp(`^${name}$`) }) });
const readerThreads = () => page.locator('.reader-pane .thread').count();

// What the folder pane shows: the views' names, then each group's title with its entries' names.
async function folderPane(): Promise<{ views: string[]; groups: [string, string[]][] }> {
  const views = await page.getByRole('list', { name: 'Views' }).locator('.folder-name').allTextContents();
  const groups: [string, string[]][] = [];
  for (const g of await page.getByTestId('folders-group').all()) {
    const title = (await g.locator('.folder-group-name').textContent()) ?? '';
    groups.push([title, await g.locator('.folder-name').allTextContents()]);
  }
  return { views, groups };
}

describe('The grouped folder list', () => {
  test('shows the views, then the account’s folders under its name and the import’s under its folder', async () => {
    await expect
      .poll(async () => (await folderPane()).groups, syncPoll)
      .toEqual([
        ['dovecot', ['Inbox', 'Drafts', 'Sent', 'Archive', 'Trash']],
        ['export', ['Sent', 'work']],
      ]);
    expect((await folderPane()).views).toEqual([
      'Inbox',
      'Starred',
      'Drafts',
      'Sent',
      'Archive',
      'Spam',
      'Trash',
      'All mail',
    ]);
    await threadRow('Server hello').click();
    await expect.poll(readerThreads).toBe(1);
    // docs/screenshots/folders.png, in the README, is a copy of this one.
    await page.screenshot({ path: join(shots, 'folders.png') });
  });

  test('has no two entries alike', async () => {
    const { views, groups } = await folderPane();
    const shown = [
      ...views.map((v) => `/${v}`),
      ...groups.flatMap(([t, names]) => names.map((n) => `${t}/${n}`)),
    ];
    expect(new Set(shown.map((s) => s.toLowerCase())).size).toBe(shown.length);
    // The account's Inbox is its own folder, not the combined Inbox above.
    await entry('dovecot', 'Inbox').click();
    await expect.poll(() => page.getByTestId('view-inbox').getAttribute('aria-current')).toBe('false');
    await expect.poll(threadSubjects).toEqual(['Server hello']);
    await page.getByTestId('view-inbox').click();
    await expect.poll(async () => (await threadSubjects()).length).toBe(3);
  });

  test('a collapsed group stays collapsed after a reload, and opens again', async () => {
    const toggle = group('export').getByTestId('folders-group-toggle');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await group('export').locator('.folder-name').count()).toBe(0);
    await page.reload();
    await expect
      .poll(() => group('export').getByTestId('folders-group-toggle').getAttribute('aria-expanded'))
      .toBe('false');
    await group('export').getByTestId('folders-group-toggle').click();
    await expect.poll(() => group('export').locator('.folder-name').count()).toBe(2);
  });

  test('Starred lists a conversation once it is starred, wherever it is', async () => {
    await page.getByTestId('view-starred').click();
    await expect.poll(() => page.locator('.list-status').textContent()).toBe('No conversations here.');
    await page.getByTestId('view-inbox').click();
    await threadRow('Imported lunch').getByTestId('row-star').click();
    await expect
      .poll(() => threadRow('Imported lunch').getByTestId('row-star').getAttribute('data-starred'))
      .toBe('true');
    await page.getByTestId('view-starred').click();
    await expect.poll(threadSubjects).toEqual(['Imported lunch']);
  });

  test('Sent lists the sent mail of the account and of the import', async () => {
    await page.getByTestId('view-sent').click();
    await expect
      .poll(async () => (await threadSubjects()).sort())
      .toEqual(['Imported sent reply', 'Server sent note']);
  });

  test('going to another folder closes a reader showing a conversation from elsewhere', async () => {
    await page.getByTestId('view-inbox').click();
    await threadRow('Server hello').click();
    await expect.poll(readerThreads).toBe(1);
    await entry('export', 'work').click();
    await expect.poll(readerThreads).toBe(0);
    await expect
      .poll(async () => (await threadSubjects()).sort())
      .toEqual(['Dinner on Saturday', 'Imported lunch']);
  });

  test('g then t goes to Sent, and g then i back to the Inbox', async () => {
    await page.locator('body').click({ position: { x: 640, y: 840 } });
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    await expect.poll(() => page.getByTestId('view-sent').getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await expect.poll(() => page.getByTestId('view-inbox').getAttribute('aria-current')).toBe('true');
  });

  test('Drafts lists the local drafts, and a click opens one in the composer', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      to: ['dan@example.org'],
      cc: [],
      subject: 'Plans for the offsite',
      body: 'A first line.',
    });
    await page.getByTestId('view-drafts').click();
    const draftRow = page.locator(`[data-testid="drafts-view-row"][data-draft-id="${draft.id}"]`);
    await expect.poll(() => draftRow.textContent()).toContain('Plans for the offsite');
    expect(await draftRow.textContent()).toContain('To dan@example.org');
    await expect.poll(() => page.getByTestId('view-drafts').textContent()).toBe('Drafts1');
    await draftRow.click();
    const composer = page.getByTestId('composer');
    await expect
      .poll(() => composer.locator(`.compose-form[data-draft-id="${draft.id}"]`).getAttribute('data-ready'))
      .toBe('true');
    expect(await composer.getByTestId('composer-body').inputValue()).toBe('A first line.');
    await composer.getByTestId('composer-body').press('Escape');
    await composer.waitFor({ state: 'detached' });
  });

  test('in Starred, e takes the conversation out of the Inbox and it stays listed; # takes it out', async () => {
    const folderOf = () =>
      app.db
        .prepare(
          "SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = '<lunch@x>'",
        )
        .pluck()
        .get();
    await page.getByTestId('view-starred').click();
    await threadRow('Imported lunch').click();
    await expect.poll(readerThreads).toBe(1);
    await page.keyboard.press('e');
    await expect.poll(folderOf).toBe('Archive');
    // The move made this computer's Archive; once the pane shows it, the list is being read again.
    await entry('On this computer', 'Archive').waitFor();
    // Still starred, so still in Starred, and still in the reader (Gmail's Starred does the same).
    await expect.poll(threadSubjects).toEqual(['Imported lunch']);
    await expect
      .poll(() => page.locator('.reader-pane .thread-subject').textContent())
      .toBe('Imported lunch');
    await page.keyboard.press('#');
    await expect.poll(folderOf).toBe('Trash');
    await expect.poll(() => page.locator('.list-status').textContent()).toBe('No conversations here.');
    await expect.poll(readerThreads).toBe(0);
  });
});

describe('Your addresses', () => {
  const dialog = (): Locator => page.getByTestId('identities-dialog');
  const identityRow = (address: string): Locator =>
    dialog().locator(`[data-testid="identity-row"][data-address="${address}"]`);

  test('lists the account’s address, marked and without Remove', async () => {
    await page.getByTestId('identities-open').click();
    await dialog().waitFor();
    await expect
      .poll(() => identityRow(user).getByTestId('identity-account').textContent())
      .toBe('Account “dovecot”');
    expect(await identityRow(user).getByTestId('identity-remove').count()).toBe(0);
  });

  test('adds an address with a name, and gives it a signature that a reply made afterwards carries', async () => {
    const form = dialog().getByTestId('identity-form');
    await form.getByTestId('identity-address').fill('Me@Home.example');
    await form.getByTestId('identity-name').fill('Me at home');
    await form.getByTestId('identity-save').click();
    await expect
      .poll(() => identityRow('me@home.example').locator('.identity-name').textContent())
      .toBe('Me at home');

    await identityRow('me@home.example').getByTestId('identity-edit').click();
    await identityRow('me@home.example').getByTestId('identity-edit-signature').fill('Best,\nMe\n');
    await identityRow('me@home.example').getByTestId('identity-edit-save').click();
    await expect
      .poll(() => identityRow('me@home.example').getByTestId('identity-signature').textContent())
      .toBe('Best,\nMe');
    const stored = await call(app, 'identity:list', {});
    expect(stored.find((i) => i.address === 'me@home.example')).toMatchObject({
      name: 'Me at home',
      signature: 'Best,\nMe',
    });

    const dinner = app.db
      .prepare("SELECT id FROM messages WHERE message_id = '<dinner@example.org>'")
      .pluck()
      .get();
    const reply = await call(app, 'draft:new', {
      kind: 'reply',
      message: Number(dinner),
      to: [],
      body: 'Yes!',
    });
    expect(reply.body).toMatch(/^Yes!\n+-- \nBest,\nMe\n/);
  });

  test('removes an added address after asking', async () => {
    await identityRow('me@home.example').getByTestId('identity-remove').click();
    await identityRow('me@home.example').getByTestId('identity-remove-confirm').click();
    await expect.poll(() => identityRow('me@home.example').count()).toBe(0);
    expect((await call(app, 'identity:list', {})).map((i) => i.address)).toEqual([user]);
    await dialog().getByTestId('identities-close').click();
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
