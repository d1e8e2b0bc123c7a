// The whole app end to end: the real server (`skimmer serve`'s code) over real loopback sockets, the
// built renderer in Debian's Chromium. Every request the page makes is recorded; anything that is not
// our own loopback origin counts as a leak and is aborted before it reaches the network.
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { searchMail } from '../support/mail-search.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const copies = tempDir();
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
const dialogs: string[] = [];

beforeAll(async () => {
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 800 },
  }));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

async function importPaths(paths: string[]) {
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-type-path').click();
  await page.getByTestId('import-paths').fill(paths.join('\n'));
  await page.getByTestId('import-start').click();
  await expect.poll(() => page.getByTestId('import-summary').isVisible(), { timeout: 30_000 }).toBe(true);
}

// Opens the first hit of a search and waits until the reader shows that hit's thread (its hit is marked open
// in the same render): until then the reader may still show the thread opened before.
async function openThreadBySearch(query: string) {
  await searchMail(page, query);
  const hit = page.getByTestId('search-hit').first();
  await hit.click();
  await expect.poll(() => hit.getAttribute('class')).toMatch(/\bopen\b/);
}

// The HTML bodies of a thread's messages: one mail frame each in the reader (reader/MessageBody.tsx).
const htmlBodies = (threadId: number): number =>
  (
    app.db.prepare('SELECT body_html FROM messages WHERE thread_id = ?').pluck().all(threadId) as (
      | string
      | null
    )[]
  ).filter((html) => html !== null && html.trim() !== '').length;

// Every mail frame shown holds its mail: the shell (about:srcdoc) has loaded and the app has written the mail
// into it (mountMail adopts the frame's style sheets as it does). Before that a frame is about:blank, or the
// empty shell, and checking it proves nothing.
const framesFilled = (): Promise<boolean> =>
  page.getByTestId('mail-frame').evaluateAll((frames) =>
    frames.every((frame) => {
      const doc = (frame as HTMLIFrameElement).contentDocument;
      return doc?.URL === 'about:srcdoc' && doc.adoptedStyleSheets.length > 0;
    }),
  );

describe('Skimmer in the browser', () => {
  test('offers the demo mailbox on first start and imports it with progress', async () => {
    await page.getByTestId('import-demo').first().click();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/Imported\s*60(?!\d)/i);
    await page.screenshot({ path: join(shots, 'import-done.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('thread-row').count()).toBeGreaterThan(10);
  });

  test('searches with operators, one hit per thread, and opens the thread', async () => {
    const search = page.getByTestId('search-input');
    await search.fill('subject:skylark');
    await search.press('Enter');
    // 13 messages in 3 threads: the launch plan, the go/no-go invitation and issue #482.
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(3);
    await page.getByTestId('search-hit').filter({ hasText: 'Re: Skylark v2 launch plan' }).first().click();
    // The whole project thread (eight messages) opens from its hit.
    await expect.poll(() => page.getByTestId('message').count()).toBe(8);
    // Every body is marked as untrusted content.
    expect(await page.getByTestId('untrusted-body').count()).toBe(8);
    await page.screenshot({ path: join(shots, 'thread.png') });
  });

  test('keeps remote images blocked until asked, then loads only that message', async () => {
    await page.keyboard.press('Escape');
    await openThreadBySearch('tracker OR newsletter OR unsubscribe');
    await page.getByTestId('mail-frame').first().waitFor();
    await expect.poll(framesFilled).toBe(true);
    expect(foreign).toEqual([]);
    await page.screenshot({ path: join(shots, 'html-blocked.png') });
    const asking = page
      .getByTestId('message')
      .filter({ has: page.getByTestId('load-images') })
      .first();
    const messageId = await asking.getAttribute('data-message-id');
    await asking.getByTestId('load-images').click();
    await expect.poll(() => foreign.length).toBeGreaterThan(0);
    // Every image of that message has been asked for (and aborted) before the next test starts counting:
    // otherwise a pixel at the end of this newsletter, requested a moment later, lands in the next test's list.
    // The frame is filled again, in the shell that lets remote images load, and every image is done loading.
    const loaded = page.locator(
      `[data-testid="message"][data-message-id="${messageId}"] [data-testid="mail-frame"]`,
    );
    await expect
      .poll(() =>
        loaded.evaluate((frame) => {
          const doc = (frame as HTMLIFrameElement).contentDocument;
          const policy = doc
            ?.querySelector('meta[http-equiv="Content-Security-Policy"]')
            ?.getAttribute('content');
          return (
            policy?.includes('https:') === true &&
            doc?.adoptedStyleSheets.length !== 0 &&
            [...(doc?.images ?? [])].every(
              (image) => image.complete && !image.hasAttribute('data-mail-blocked'),
            )
          );
        }),
      )
      .toBe(true);
    expect(foreign.every((u) => /example\.(net|com|org)/.test(u))).toBe(true);
  });

  test('runs no script and loads nothing from hostile mail', async () => {
    foreign.length = 0;
    // Copied to the temporary folder: Skimmer opens files only from the user's places (DESIGN §13), and a
    // checkout need not be in one.
    const hostile = join(copies, 'hostile');
    cpSync(join(projectRoot, 'fixtures', 'hostile'), hostile, { recursive: true });
    await importPaths([hostile]);
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/Imported\s*13(?!\d)/i);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid^="folder-"]', { hasText: 'hostile' }).click();
    await expect.poll(() => page.getByTestId('thread-row').count()).toBe(13);
    let checked = 0;
    for (let i = 0; i < 13; i++) {
      const row = page.getByTestId('thread-row').nth(i);
      const threadId = Number(await row.getAttribute('data-thread-id'));
      await row.click();
      // The reader shows this thread once its row is marked open (the same render), with a frame for each
      // HTML body, each filled with its mail: only then are these the frames to check.
      await expect.poll(() => row.getAttribute('class')).toMatch(/\bopen\b/);
      const expected = htmlBodies(threadId);
      await expect.poll(() => page.getByTestId('mail-frame').count()).toBe(expected);
      await expect.poll(framesFilled).toBe(true);
      const frames = await Promise.all(
        (await page.getByTestId('mail-frame').elementHandles()).map((h) => h.contentFrame()),
      );
      for (const frame of frames) {
        if (!frame) throw new Error(`a mail frame of thread ${threadId} has no document`);
        const found = await frame.evaluate(() => {
          const all = [...document.querySelectorAll('*')];
          return {
            scripts: document.querySelectorAll(
              'script, iframe, object, embed, form, base, meta[http-equiv="refresh"]',
            ).length,
            handlers: all.filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
            remote: all.filter((el) =>
              /(^|\/\/)(evil|tracker)\.example\.net/i.test(el.getAttribute('src') ?? ''),
            ).length,
            hrefs: all.filter((el) => el.hasAttribute('href') && el.tagName !== 'LINK').length,
          };
        });
        expect(found).toEqual({ scripts: 0, handlers: 0, remote: 0, hrefs: 0 });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8);
    await page.screenshot({ path: join(shots, 'hostile.png') });
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
  }, 90_000);

  test('shows the real URL before a link opens', async () => {
    await openThreadBySearch('verify password');
    const frame = page.frameLocator('[data-testid="mail-frame"]').first();
    await frame.locator('a').first().click();
    const url = await page.getByTestId('link-confirm-url').textContent();
    expect(url).toMatch(/^https?:\/\//);
    await page.screenshot({ path: join(shots, 'link-confirm.png') });
    await page.keyboard.press('Escape');
    expect(foreign).toEqual([]);
  });

  test('moves with j/k, opens with Enter and searches with /', async () => {
    // The keys act on the list shown: wait until it is the whole mailbox's, not the hostile folder's (still
    // there, or being read again, right after the click).
    const { threads } = await call(app, 'mail:threads', { folderId: null, offset: 0, limit: 2 });
    const [newest, second] = threads.map((t) => String(t.id));
    await page.locator('[data-testid="view-all"]').click();
    await expect
      .poll(() => page.getByTestId('thread-row').first().getAttribute('data-thread-id'))
      .toBe(newest);
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    const selected = page.locator('[data-testid="thread-row"][aria-selected="true"]');
    await expect.poll(() => selected.getAttribute('data-thread-id')).toBe(second);
    expect(await selected.count()).toBe(1);
    expect(await page.getByTestId('thread-row').nth(1).getAttribute('data-thread-id')).toBe(second);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('[data-testid="thread-row"].open').getAttribute('data-thread-id'))
      .toBe(second);
    await page.keyboard.press('/');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('search-input');
    await page.keyboard.press('Escape');
  });

  test('switches between light and dark themes', async () => {
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByTestId('theme-toggle').click();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    await expect.poll(theme).not.toBe(before);
    await page.screenshot({ path: join(shots, `theme-${await theme()}.png`) });
  });
});
