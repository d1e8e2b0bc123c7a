// Calendar invitations end to end (issue 29 §2): a real Dovecot and SMTP server on loopback, the app with its
// background sync and outbox sender, the built renderer in Debian's Chromium. An invitation as each common
// sender writes it (Google Calendar, Outlook, iCloud, Fastmail: fixtures/invitations/*.eml) shows its event card
// above the body and is answered from the card; the SMTP server receives each iTIP REPLY from the invited
// address (one of the person's, not the account's login) to the organiser, with the answer chosen. An update
// says what changed since the invitation read before; a cancellation says Cancelled and offers no answer; a
// hostile calendar part is one sentence above a message that shows as usual. Every wait is for a condition.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { tempDir } from '../support/temp.ts';
import { waitUntil } from '../support/wait-until.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
const fixture = (name: string) => readFileSync(join(projectRoot, 'fixtures', 'invitations', name));
// Generous: the machine is shared, and a send waits out the undo window (10 s) and the sender's next round.
const wait = { timeout: 60_000 };
const poll = { timeout: 60_000, interval: 250 };

let server: Dovecot;
let sink: SmtpSink;
let app: App;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

// Each sender's invitation: the row's subject, the answer given on its card, the organiser who gets the REPLY.
const senders = [
  { file: 'google.eml', row: /^Invitation: Weekly sync/, answer: 'accepted', organizer: 'ada@example.com' },
  { file: 'outlook.eml', row: /^Q1 review/, answer: 'tentative', organizer: 'grace@contoso.com' },
  { file: 'icloud.eml', row: /^Invitation: Team offsite/, answer: 'declined', organizer: 'kj@icloud.com' },
  { file: 'fastmail.eml', row: /Invitation: Dentist/, answer: 'accepted', organizer: 'dorothy@fastmail.com' },
] as const;

const row = (subject: RegExp): Locator =>
  page.locator('[data-testid="thread-row"]', { has: page.getByText(subject) });
const card = (): Locator => page.getByTestId('invitation');

async function open(subject: RegExp): Promise<void> {
  // At 900 px the reader replaces the list: back to it first.
  const back = page.getByTestId('back-to-list');
  if (await back.isVisible()) await back.click();
  await row(subject).first().click();
  await page.getByTestId('message').first().waitFor(wait);
  // Once the REPLY sent is in the thread, the invitation is the older, folded message: open it.
  for (const folded of await page.getByTestId('message-collapsed').all()) await folded.click();
}

// The card's `testId` on screen. A background sync that re-reads the thread may fold the invitation again
// (it is the older message once the REPLY is in the thread): it is unfolded until the card shows.
async function showCard(testId: string, text?: string): Promise<void> {
  const shown = page.getByTestId('invitation').getByTestId(testId);
  await expect
    .poll(async () => {
      for (const folded of await page.getByTestId('message-collapsed').all())
        await folded.click().catch(() => {});
      if (!(await shown.isVisible())) return null;
      return text === undefined ? true : await shown.textContent({ timeout: 1000 }).catch(() => null);
    }, poll)
    .toBe(text ?? true);
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append(
    'INBOX',
    ['google.eml', 'outlook.eml', 'icloud.eml', 'fastmail.eml', 'hostile.eml'].map(fixture),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: server.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  // The invitations name me@example.org: one of the person's addresses, sent through this account.
  await call(app, 'identity:add', { address: 'me@example.org', name: 'Me' });
  const count = app.db.prepare('SELECT count(*) FROM messages').pluck();
  await waitUntil(() => count.get() === 5, poll, 'the account did not sync');
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 900 } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await sink?.close();
  await server?.stop();
});

describe('Calendar invitations', () => {
  test("each sender's invitation shows its card and is answered; the REPLY reaches the organiser", async () => {
    for (const s of senders) {
      await open(s.row);
      await card().waitFor(wait);
      await expect.poll(() => card().getByTestId('invitation-when').textContent(), poll).not.toBe('');
      await card().getByTestId(`invitation-${s.answer}`).click();
      // The chosen answer shows as chosen, and says so.
      await expect
        .poll(() => card().getByTestId(`invitation-${s.answer}`).getAttribute('aria-pressed'), poll)
        .toBe('true');
      expect(await card().getByTestId('invitation-answer').textContent()).toMatch(
        /^You (accepted|said maybe|declined)/,
      );
    }
    // Google's card: the organiser's time beside the person's, the series in words, who else is invited.
    await open(/^Invitation: Weekly sync/);
    await showCard('invitation-title', 'Weekly sync');
    expect(await card().getByTestId('invitation-repeats').textContent()).toBe(
      'Every week on Tuesday, 10 times',
    );
    expect(await card().getByTestId('invitation-where').textContent()).toBe('Room 4, Main St');
    expect(await card().getByTestId('invitation-organizer').textContent()).toBe(
      'Ada Lovelace <ada@example.com>',
    );
    expect(await card().getByTestId('invitation-attendees').textContent()).toContain('me@example.org');
    expect(await card().getByTestId('invitation-their-time').textContent()).toContain('in Europe/Amsterdam');
    // Add to calendar saves the calendar part as the sender sent it.
    const [download] = await Promise.all([
      page.waitForEvent('download', wait),
      card().getByTestId('invitation-add').click(),
    ]);
    expect(download.suggestedFilename()).toBe('Weekly sync.ics');
    const saved = await download.path();
    expect(readFileSync(saved).toString('utf8')).toContain('UID:7kukuqrfedlm2f9t0vr42q3nsk@google.com');

    const got = await sink.waitFor(senders.length, 120_000);
    const replies = await Promise.all(
      got.map(async (m) => {
        const parsed = await simpleParser(m.raw);
        const calendar = parsed.attachments.find((a) => a.contentType === 'text/calendar');
        return {
          to: m.to,
          from: parsed.from?.value[0]?.address,
          subject: parsed.subject,
          type: calendar?.headers.get('content-type'),
          ical: calendar?.content.toString('utf8').replace(/\r\n[ \t]/g, '') ?? '',
        };
      }),
    );
    for (const s of senders) {
      const reply = replies.find((r) => r.to[0] === s.organizer);
      expect(reply?.from).toBe('me@example.org');
      expect(reply?.type).toMatchObject({ value: 'text/calendar', params: { method: 'REPLY' } });
      expect(reply?.ical).toContain('METHOD:REPLY');
      expect(reply?.ical).toMatch(new RegExp(`^ORGANIZER[^\\r\\n]*:mailto:${s.organizer}\\r?$`, 'm'));
      const partstat =
        s.answer === 'accepted' ? 'ACCEPTED' : s.answer === 'tentative' ? 'TENTATIVE' : 'DECLINED';
      expect(reply?.ical).toMatch(
        new RegExp(`^ATTENDEE[^\\r\\n]*PARTSTAT=${partstat}[^\\r\\n]*:mailto:me@example.org`, 'm'),
      );
    }
    expect(replies.find((r) => r.to[0] === 'grace@contoso.com')?.subject).toBe('Tentative: Q1 review');
    // Sent, the card says the answer without "sending soon".
    await showCard('invitation-answer', 'You accepted.');
    expect(foreign).toEqual([]);
  });

  test('an update says what changed; a cancellation says Cancelled and offers no answer', async () => {
    await server.append('INBOX', [fixture('google-update.eml'), fixture('fastmail-cancel.eml')]);
    await expect.poll(() => row(/^Updated invitation: Weekly sync/).count(), poll).toBe(1);
    await expect.poll(() => row(/^Cancelled: Dentist/).count(), poll).toBe(1);

    await open(/^Updated invitation: Weekly sync/);
    await card().getByTestId('invitation-changes').waitFor(wait);
    const changes = await card().getByTestId('invitation-changes').textContent();
    expect(changes).toMatch(/Updated: the time changed from .+ to .+\./);
    expect(changes).toContain('Updated: the place changed from "Room 4, Main St" to "Room 7, Main St".');
    // The answer was to the earlier version: the buttons are there to answer again.
    expect(await card().getByTestId('invitation-answer').textContent()).toBe(
      'You accepted an earlier version of this event.',
    );
    expect(await card().getByTestId('invitation-accepted').getAttribute('aria-pressed')).toBe('false');

    await open(/^Cancelled: Dentist/);
    await card().getByTestId('invitation-cancelled').waitFor(wait);
    expect(await card().getByTestId('invitation-title').textContent()).toBe('Dentist');
    expect(await card().getByTestId('invitation-accepted').count()).toBe(0);
    expect(await card().getByTestId('invitation-declined').count()).toBe(0);
  });

  test('a hostile calendar part is one sentence, and the message shows as usual', async () => {
    await open(/^Invitation: Everyone/);
    const note = page.getByTestId('invitation-unreadable');
    await note.waitFor(wait);
    expect(await note.textContent()).toBe(
      'This invitation could not be read: the invitation\'s start is in a time zone Skimmer does not know ("Mars/Olympus_Mons").',
    );
    expect(await card().count()).toBe(0);
    const body = page.frameLocator('[data-testid="message"] [data-testid="mail-frame"]').locator('body');
    await expect.poll(() => body.textContent(), poll).toContain('Invitation: Everyone.');
  });

  // How the card looks at a laptop's width and a narrow window's, in both themes (test-results/screenshots;
  // docs/screenshots/invitation-*.png are copies).
  for (const width of [1280, 900]) {
    for (const theme of ['light', 'dark'] as const) {
      test(`the card at ${width} px, ${theme}`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate((t) => localStorage.setItem('skimmer.theme', t), theme);
        await page.reload();
        await row(/^Updated invitation: Weekly sync/)
          .first()
          .waitFor(wait);
        await open(/^Updated invitation: Weekly sync/);
        await showCard('invitation-changes');
        await page.screenshot({ path: join(shots, `invitation-update-${width}-${theme}.png`) });
        await open(/^Q1 review/);
        // The answer given shows on the card after a reload.
        await showCard('invitation-answer', 'You said maybe.');
        await page.screenshot({ path: join(shots, `invitation-answered-${width}-${theme}.png`) });
      }, 150_000);
    }
  }
});
