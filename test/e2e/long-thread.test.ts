// Reading a long thread (issue 29 §5, DESIGN §12 "Long threads"): the real server and bridge, the built
// renderer in Debian's Chromium. A thread of nine messages imported from a Maildir (seven read, one unread,
// the last read): the read ones collapse to a line and the unread and the last stay open; a collapsed line opens
// by a click and by Enter; Expand all / Collapse all by button and by `;` / `:`; a plain-text quote and an HTML
// gmail_quote fold behind "…" and unfold; a search marks its words in the snippets and the open message, and
// mail text that looks like markup stays text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { searchMail } from '../support/mail-search.ts';
import { eml, tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
// docs/screenshots/thread-*.png, in the README, are copies of these.
const shots = join(import.meta.dirname, '../../test-results/screenshots');
mkdirSync(shots, { recursive: true });

const people = [
  'Dana Reyes <dana@example.com>',
  'Bo Lindqvist <bo@example.com>',
  'Ana Müller <ana@example.com>',
];
const subject = 'Venue for the offsite';
const id = (n: number) => `<offsite-${n}@example.com>`;
const date = (n: number) => `${String(n + 10)} Nov 2026 09:${String(n).padStart(2, '0')}:00 +0000`;
const bodies = [
  'Shall we pick the venue for the offsite this week? I have three options.',
  'The lakeside hall looks best to me, but it is far from the station.',
  'I can check the trains. The 8:10 gets there at 9:30.',
  'Trains work. What about catering? The hall has its own kitchen.',
  'Their kitchen is fine; the menu is attached to their site.',
  'Budget check: the hall is 2,400 for the day with lunch.',
  'That fits. Shall I book it for the 4th?',
];
const lastBody = [
  'Booked for the 4th, deposit paid. <b>not bold</b> stays as typed.',
  '',
  'On Tue, 17 Nov 2026 at 09:07, Bo Lindqvist <bo@example.com> wrote:',
  '> That fits. Shall I book it for the 4th?',
  '>',
  '> On Mon, 16 Nov 2026, Ana Müller <ana@example.com> wrote:',
  '>> Budget check: the hall is 2,400 for the day with lunch.',
  '',
].join('\n');
const unreadHtml = [
  `From: ${people[1]}`,
  'To: Dana Reyes <dana@example.com>',
  `Subject: Re: ${subject}`,
  `Date: ${date(8)}`,
  `Message-ID: ${id(8)}`,
  `In-Reply-To: ${id(7)}`,
  `References: ${[1, 2, 3, 4, 5, 6, 7].map(id).join(' ')}`,
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<div dir="ltr">Yes please, the 4th works for the whole team.</div><br>',
  '<div class="gmail_quote"><div class="gmail_attr">On Tue, 17 Nov 2026 at 09:07, Dana Reyes &lt;dana@example.com&gt; wrote:</div>',
  '<blockquote class="gmail_quote">That fits. Shall I book it for the 4th? The deposit is due Friday.</blockquote></div>',
  '',
].join('\r\n');

// Outlook's reply forms: its web app's HTML (the header block div#divRplyFwdMsg after an <hr>, the answered
// mail's text after it unmarked) and its plain text ("-----Original Message-----").
const outlookHtml = [
  'From: Ana Müller <ana@example.com>',
  'To: Dana Reyes <dana@example.com>',
  'Subject: Re: Parking at the hall',
  'Date: 20 Nov 2026 10:00:00 +0000',
  'Message-ID: <outlook-html@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<div dir="ltr"><p>Twelve spaces are kept for us until noon.</p></div>',
  '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">',
  '<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Dana Reyes &lt;dana@example.com&gt;<br><b>Sent:</b> Thursday, 19 November 2026 17:00<br><b>Subject:</b> Parking at the hall</div>',
  '<div><p>Can the hall hold parking spaces for the team?</p></div>',
  '',
].join('\r\n');
const outlookPlain = [
  'Yes, the minibus leaves at 8:00 from the station.',
  '',
  '-----Original Message-----',
  'From: Dana Reyes <dana@example.com>',
  'Sent: Thursday, 19 November 2026 17:05',
  'Subject: Minibus from the station',
  '',
  'Is there a minibus from the station?',
  '',
].join('\n');

const maildirFile = (dir: string, name: string, text: string) => writeFileSync(join(dir, name), text);

beforeAll(async () => {
  const maildir = join(tempDir(), 'Offsite');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  bodies.forEach((body, index) => {
    const n = index + 1;
    maildirFile(
      join(maildir, 'cur'),
      `170000000${n}.${n}.host:2,S`,
      eml({
        id: id(n),
        subject: n === 1 ? subject : `Re: ${subject}`,
        from: people[index % 3],
        date: date(n),
        ...(n > 1
          ? { inReplyTo: id(n - 1), references: [...Array(n - 1).keys()].map((k) => id(k + 1)).join(' ') }
          : {}),
        body,
      }),
    );
  });
  maildirFile(join(maildir, 'new'), '1700000008.8.host', unreadHtml);
  maildirFile(
    join(maildir, 'cur'),
    '1700000009.9.host:2,S',
    eml({
      id: id(9),
      subject: `Re: ${subject}`,
      from: people[0],
      date: date(9),
      inReplyTo: id(8),
      references: [1, 2, 3, 4, 5, 6, 7, 8].map(id).join(' '),
      body: lastBody,
    }),
  );
  maildirFile(join(maildir, 'new'), '1700000010.10.host', outlookHtml);
  maildirFile(
    join(maildir, 'new'),
    '1700000011.11.host',
    eml({
      id: '<outlook-plain@example.com>',
      subject: 'Re: Minibus from the station',
      from: people[2],
      date: '20 Nov 2026 10:05:00 +0000',
      body: outlookPlain,
    }),
  );
  await app.importFiles([maildir], () => {}).done;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const collapsed = () => page.getByTestId('message-collapsed');
const open = () => page.getByTestId('message');
const openIds = () =>
  open().evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-message-id'))));
const messageId = (n: number) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(id(n)) as number;

async function openThread(): Promise<void> {
  const row = page.getByTestId('thread-row').filter({ hasText: subject });
  await row.click();
  await expect.poll(() => row.getAttribute('class')).toMatch(/\bopen\b/);
  await expect.poll(() => page.getByTestId('thread-fold-bar').textContent()).toContain('9 messages');
}

async function htmlFrame(): Promise<Frame> {
  const handle = await page
    .getByTestId('message')
    .filter({ hasText: 'Bo Lindqvist' })
    .getByTestId('mail-frame')
    .elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the HTML message has no frame');
  await expect.poll(() => frame.evaluate(() => document.body?.textContent ?? '')).toContain('the 4th works');
  return frame;
}

describe('A long thread', () => {
  test('read messages collapse to a line; the unread one and the last stay open', async () => {
    await openThread();
    await expect.poll(() => collapsed().count()).toBe(7);
    await expect.poll(openIds).toEqual([messageId(8), messageId(9)]);
    // The line shows the sender, the time and the first words, as text.
    const first = collapsed().first();
    expect(await first.textContent()).toContain('Dana Reyes');
    expect(await first.textContent()).toContain('Shall we pick the venue');
    // Opening the thread marks the unread message read; it stays open all the same.
    await expect
      .poll(() => app.db.prepare('SELECT unread FROM messages WHERE id = ?').pluck().get(messageId(8)))
      .toBe(0);
    await expect.poll(openIds).toEqual([messageId(8), messageId(9)]);
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: join(shots, `thread-collapsed-light-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(foreign).toEqual([]);
  });

  test('a click or Enter on a collapsed line opens that message, its own button folds it back', async () => {
    await collapsed().first().click();
    await expect.poll(openIds).toEqual([messageId(1), messageId(8), messageId(9)]);
    await collapsed().first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(openIds).toEqual([messageId(1), messageId(2), messageId(8), messageId(9)]);
    await open().first().getByTestId('message-collapse').click();
    await expect.poll(openIds).toEqual([messageId(2), messageId(8), messageId(9)]);
  });

  test('Expand all and Collapse all, by button and by ; and :', async () => {
    await page.getByTestId('expand-all').click();
    await expect.poll(() => open().count()).toBe(9);
    expect(await collapsed().count()).toBe(0);
    await page.getByTestId('collapse-all').click();
    await expect.poll(() => collapsed().count()).toBe(9);
    expect(await open().count()).toBe(0);

    await page.locator('body').focus();
    await page.keyboard.press(';');
    await expect.poll(() => open().count()).toBe(9);
    await page.keyboard.press(':');
    await expect.poll(() => collapsed().count()).toBe(9);
    await page.keyboard.press(';');
    await expect.poll(() => open().count()).toBe(9);
  });

  test('the plain-text quote folds behind … and unfolds; markup in the mail stays text', async () => {
    const last = open().last();
    const fold = last.getByTestId('quote-fold');
    await expect.poll(() => fold.count()).toBe(1);
    // The reply's own words show, the quote and its "wrote:" line do not.
    const body = last.locator('.plain-body');
    expect(await body.textContent()).toContain('Booked for the 4th');
    expect(await body.textContent()).not.toContain('Shall I book it');
    expect(await last.locator('.plain-body b').count()).toBe(0);
    expect(await body.textContent()).toContain('<b>not bold</b>');
    // The untrusted-mail badge is outside the fold and always shows.
    expect(await last.getByTestId('untrusted-body').locator('.untrusted-badge').isVisible()).toBe(true);
    await last.scrollIntoViewIfNeeded();
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await last.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `thread-quote-folded-light-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await last.getByTestId('quote-fold-toggle').click();
    await expect
      .poll(() => last.getByTestId('quote-fold-text').textContent())
      .toContain('Shall I book it for the 4th?');
    expect(await last.getByTestId('quote-fold-text').textContent()).toContain('>> Budget check');
    await last.getByTestId('quote-fold-toggle').click();
    await expect.poll(() => last.getByTestId('quote-fold-text').count()).toBe(0);
  });

  test('the HTML reply’s gmail_quote folds into a details element that opens without script', async () => {
    const frame = await htmlFrame();
    const state = () =>
      frame.evaluate(() => {
        const details = document.querySelector('details.skimmer-quote-fold') as HTMLDetailsElement | null;
        const quote = document.querySelector('div.gmail_quote') as HTMLElement | null;
        return {
          details: details !== null,
          open: details?.open ?? null,
          quoteShown: quote?.checkVisibility() ?? false,
        };
      });
    await expect.poll(state).toEqual({ details: true, open: false, quoteShown: false });
    await frame.locator('summary').click();
    await expect.poll(state).toEqual({ details: true, open: true, quoteShown: true });
    await frame.locator('summary').click();
    await expect.poll(state).toEqual({ details: true, open: false, quoteShown: false });
  });

  test('a search marks its words in the snippet and in the opened message, as text', async () => {
    await searchMail(page, 'deposit');
    const hit = page.getByTestId('search-hit').first();
    await expect.poll(() => hit.getByTestId('search-mark').allTextContents()).toContain('deposit');
    await hit.click();
    await expect.poll(() => hit.getAttribute('class')).toMatch(/\bopen\b/);
    // In the plain-text message…
    await expect
      .poll(() => page.getByTestId('message').locator('.plain-body mark.search-term').allTextContents())
      .toContain('deposit');
    // …and in the HTML one, where the match inside the quote opens its fold.
    const frame = await htmlFrame();
    await expect
      .poll(() =>
        frame.evaluate(() => ({
          marks: [...document.querySelectorAll('mark.search-term')].map((m) => m.textContent),
          open: (document.querySelector('details.skimmer-quote-fold') as HTMLDetailsElement | null)?.open,
        })),
      )
      .toEqual({ marks: ['deposit'], open: true });
    await page.screenshot({ path: join(shots, 'thread-search-marked-light-1280.png') });

    // Diacritics fold: `muller` marks Müller in the snippets.
    await searchMail(page, 'muller');
    await expect
      .poll(() => page.getByTestId('search-hit').getByTestId('search-mark').allTextContents())
      .toContain('Müller');
    expect(foreign).toEqual([]);
  });

  test('the dark theme: the collapsed thread and a folded quote', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.locator('body').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(0);
    await openThread();
    await page.keyboard.press(':');
    await expect.poll(() => collapsed().count()).toBe(9);
    await collapsed().nth(7).click();
    await collapsed().nth(7).click();
    await expect.poll(() => open().count()).toBe(2);
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByTestId('thread-fold-bar').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `thread-collapsed-dark-${width}.png`) });
      await open().last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `thread-quote-folded-dark-${width}.png`) });
    }
  });
  test('Outlook’s replies fold from its header of the answered mail to the end, in HTML and plain text', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('thread-row').filter({ hasText: 'Parking at the hall' }).click();
    const handle = await page.getByTestId('message').getByTestId('mail-frame').elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error('the Outlook message has no frame');
    const shown = () =>
      frame.evaluate(() => {
        const visible = (text: string) =>
          [...document.querySelectorAll('p')].some((p) => p.textContent === text && p.checkVisibility());
        return {
          own: visible('Twelve spaces are kept for us until noon.'),
          quoted: visible('Can the hall hold parking spaces for the team?'),
        };
      });
    await expect.poll(shown).toEqual({ own: true, quoted: false });
    await page.screenshot({ path: join(shots, 'thread-outlook-folded-dark-1280.png') });
    await frame.locator('summary').click();
    await expect.poll(shown).toEqual({ own: true, quoted: true });

    await page.getByTestId('thread-row').filter({ hasText: 'Minibus from the station' }).click();
    const message = page.getByTestId('message').filter({ hasText: 'the minibus leaves at 8:00' });
    await message.getByTestId('quote-fold').waitFor();
    expect(await message.textContent()).not.toContain('Original Message');
    await message.getByTestId('quote-fold-toggle').click();
    await expect
      .poll(() => message.getByTestId('quote-fold-text').textContent())
      .toContain('Is there a minibus from the station?');
  });
});
