// A real mail account end to end (issue 5): a real Dovecot on loopback, the real server and bridge with the
// background sync of the long-running app, the built renderer in Debian's Chromium. What it proves: the
// account is added through the Accounts form (the plaintext rule shows before Save), its background sync
// reaches "Up to date", and the mail on the server shows in the list without a reload, including a message
// another client delivers later; Archive (the button, and `e`) and Trash (`#`) move the message on the server
// within seconds, and Undo moves it back; a move the server refuses shows on the message, and Retry sends it
// again; Test and Sync now work from the dialog; a message in the outbox
// counts down with Undo (which makes it a draft again), goes out by SMTP (a real SMTP server on loopback) when its window ends, and a failed
// one says why and offers Retry, which tries again, and "Back to drafts", which makes it a draft again; a
// message queued behind the page's back shows without a reload (the watch's outbox events); mail another
// client files into the folder the page has open shows without a reload (IDLE on that folder); the password
// never reaches the page, neither in its markup nor in any bridge message Skimmer sends it; nothing leaves
// loopback.
import { chmodSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import { type Outbox, prepareOutbox, undoWindowMs } from '../../electron/mail/send/outbox.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp, pageShows } from '../support/browser.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { eml, tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const user = 'test@example.com';
const password = 'secret';
const seeded = [
  { id: '<figures@example.com>', subject: 'Quarterly figures' },
  { id: '<offsite@example.com>', subject: 'Team offsite agenda' },
  { id: '<invoice@example.com>', subject: 'Invoice 2041 from Litware' },
];
const late = { id: '<late@example.com>', subject: 'Delivered after the first sync' };
// The background sync pushes a local change within a couple of seconds (it looks at its queue every 2 s).
const serverPoll = { timeout: 30_000, interval: 250 };

let server: Dovecot;
let sink: SmtpSink;
let sinkOpen = false;
let app: App;
let outbox: Outbox;
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
// Every bridge frame of the page's WebSocket, both ways.
const sent: string[] = [];
const received: string[] = [];

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user, pass: password });
  sinkOpen = true;
  await server.append(
    'INBOX',
    seeded.map((m, i) =>
      eml({ ...m, date: `Sun, 29 Nov 2026 1${i}:00:00 +0000`, body: `About ${m.subject.toLowerCase()}.` }),
    ),
  );
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  outbox = prepareOutbox(app.db);
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 1000 },
    colorScheme: 'light',
  }));
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => sent.push(String(frame.payload)));
    ws.on('framereceived', (frame) => received.push(String(frame.payload)));
  });
  // Again, so that the bridge's socket opens with the recorder listening (the token stays in sessionStorage).
  await page.reload();
  await page.getByTestId('accounts-open').waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
  await server?.stop();
  if (sinkOpen) await sink.close();
});

const dialog = (): Locator => page.getByTestId('accounts-dialog');
const accountRow = (): Locator => dialog().getByTestId('account-row');
const threadRow = (subject: string): Locator => page.getByTestId('thread-row').filter({ hasText: subject });
const folderButton = (name: string): Locator =>
  page
    .locator('[data-testid^="folder-"]')
    .filter({ has: page.locator('.folder-name', { hasText: new RegExp(`^${name}$`) }) });

// Set on the page once; still there later means the page was never reloaded.
const markPage = () => page.evaluate(() => Object.assign(window, { skimmerTestMark: 'still here' }));
const pageKept = () =>
  page.evaluate(() => (window as unknown as { skimmerTestMark?: string }).skimmerTestMark === 'still here');

// Where the server keeps the message now, asked over a second IMAP connection of our own.
async function mailboxesOf(messageId: string): Promise<string[]> {
  const client = await server.client();
  try {
    const found: string[] = [];
    for (const box of ['INBOX', 'Archive', 'Trash']) {
      await client.mailboxOpen(box, { readOnly: true });
      const uids = (await client.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
      if (uids.length > 0) found.push(box);
    }
    return found;
  } finally {
    await client.logout();
  }
}

// Queues a message the way an approved send_mail does (electron/ai/tools/mail-tools.ts): the chat is not what
// is under test here, the outbox bar is.
function queue(to: string, subject: string): number {
  const accountId = app.accounts.list()[0]?.id;
  if (!accountId) throw new Error('no account');
  const body = 'Sent by the accounts end-to-end test.';
  return outbox.queue(accountId, { to: [to], cc: [], subject, body, inReplyTo: null }).id;
}
const outboxItem = (id: number): Locator =>
  page.locator(`[data-testid="outbox-item"][data-outbox-id="${id}"]`);

async function openThread(subject: string): Promise<void> {
  await threadRow(subject).click();
  await page.getByTestId('message').filter({ hasText: subject }).first().waitFor();
}

describe('A mail account in the app', () => {
  test('is added through the Accounts form, which shows the plaintext rule before saving', async () => {
    await markPage();
    await page.getByTestId('accounts-open').click();
    await dialog().waitFor();
    await dialog().getByTestId('accounts-empty').waitFor();
    const form = dialog().getByTestId('account-form');

    // The form asks for the address first; these settings are typed by hand.
    await form.getByTestId('account-by-hand').click();
    // A preset fills in the provider's servers.
    await form.getByTestId('account-preset').selectOption('gmail');
    await expect.poll(() => form.getByTestId('account-imap-host').inputValue()).toBe('imap.gmail.com');
    expect(await form.getByTestId('account-imap-port').inputValue()).toBe('993');
    expect(await form.getByTestId('account-smtp-on').isChecked()).toBe(true);
    expect(await form.getByTestId('account-smtp-host').inputValue()).toBe('smtp.gmail.com');

    // Without TLS only this computer is allowed: the form says so while typing.
    await form.getByTestId('account-imap-host').fill('imap.example.com');
    await form.getByTestId('account-imap-tls').selectOption('none');
    await expect
      .poll(() => form.getByTestId('account-imap-verdict').textContent())
      .toContain('allowed only on this computer');
    await form.getByTestId('account-imap-host').fill(server.host);
    await form.getByTestId('account-imap-port').fill(String(server.port));
    await expect
      .poll(() => form.getByTestId('account-imap-verdict').textContent())
      .toContain('allowed only because 127.0.0.1 is this computer');
    expect(await form.getByTestId('account-preset').inputValue()).toBe('custom');
    await form.getByTestId('account-smtp-host').fill(sink.host);
    await form.getByTestId('account-smtp-tls').selectOption('none');
    await expect.poll(() => form.getByTestId('account-smtp-port').inputValue()).toBe('25');
    await form.getByTestId('account-smtp-port').fill(String(sink.port));
    await expect
      .poll(() => form.getByTestId('account-smtp-verdict').textContent())
      .toContain('is this computer');

    await form.getByTestId('account-name').fill('dovecot');
    await form.getByTestId('account-user').fill(user);
    await form.getByTestId('account-password').fill(password);
    await form.getByTestId('account-save').click();
    await form.getByTestId('account-saved').waitFor();
    // Once saved, the form is back at its first step, for another account: the password is gone from it.
    expect(await form.getAttribute('data-step')).toBe('address');
    expect(await form.getByTestId('account-password').count()).toBe(0);

    await expect.poll(() => accountRow().count()).toBe(1);
    expect(await accountRow().getAttribute('data-account-name')).toBe('dovecot');
    const servers = await accountRow().getByTestId('account-servers').textContent();
    expect(servers).toContain(`IMAP ${server.host}:${server.port} · None (this computer only)`);
    expect(servers).toContain(`SMTP ${sink.host}:${sink.port} · None (this computer only)`);
    expect(await accountRow().getByTestId('account-password-saved').textContent()).toBe('Password saved');
    await expect.poll(() => accountRow().getByTestId('account-status').textContent()).toBe('Up to date');
    await expect
      .poll(() => accountRow().getByTestId('account-record').textContent())
      .toMatch(/^Last synced /);
    await page.screenshot({ path: join(shots, 'accounts.png') });
    const [account] = await call(app, 'account:list', {});
    expect(account).toMatchObject({ name: 'dovecot', user, hasPassword: true, lastError: null });
  });

  test('shows the synced mail without a reload', async () => {
    await dialog().getByTestId('accounts-close').click();
    await dialog().waitFor({ state: 'detached' });
    for (const m of seeded) await expect.poll(() => threadRow(m.subject).count()).toBe(1);
    await expect.poll(() => folderButton('Inbox').count()).toBe(1);
    expect(await pageKept()).toBe(true);
  });

  test('shows a message another client delivers later, without a reload', async () => {
    await server.append('INBOX', [eml({ ...late, date: 'Mon, 30 Nov 2026 09:00:00 +0000' })]);
    await expect.poll(() => threadRow(late.subject).count()).toBe(1);
    expect(await pageKept()).toBe(true);
  });

  test('Archive moves the message to the server’s Archive, and Undo brings it back', async () => {
    const [figures] = seeded;
    if (!figures) throw new Error('no seeded message');
    await folderButton('Inbox').click();
    await openThread(figures.subject);
    await page.getByTestId('thread-archive').click();
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Archived 1 message');
    // Viewing Inbox, the conversation has left it.
    await expect.poll(() => threadRow(figures.subject).count()).toBe(0);
    await expect.poll(() => mailboxesOf(figures.id), serverPoll).toEqual(['Archive']);
    await page.screenshot({ path: join(shots, 'account-archived.png') });

    await page.getByTestId('undo-button').click();
    await expect.poll(() => page.getByTestId('undo-done').textContent()).toBe('Undone: Archived 1 message');
    await expect.poll(() => threadRow(figures.subject).count()).toBe(1);
    await expect.poll(() => mailboxesOf(figures.id), serverPoll).toEqual(['INBOX']);
  });

  test('e archives the selected conversation and # moves one to Trash, on the server too', async () => {
    const [, offsite, invoice] = seeded;
    if (!offsite || !invoice) throw new Error('no seeded message');
    await openThread(offsite.subject);
    await page.keyboard.press('e');
    await expect.poll(() => threadRow(offsite.subject).count()).toBe(0);
    await expect.poll(() => mailboxesOf(offsite.id), serverPoll).toEqual(['Archive']);

    await openThread(invoice.subject);
    await page.keyboard.press('#');
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toBe('Moved to Trash 1 message');
    await expect.poll(() => threadRow(invoice.subject).count()).toBe(0);
    await expect.poll(() => mailboxesOf(invoice.id), serverPoll).toEqual(['Trash']);
    expect(await pageKept()).toBe(true);
  });

  test('a change the server refuses shows on the message, and Retry sends it again', async () => {
    // The server's Archive turns read-only: Dovecot answers the move with NO.
    const archiveDir = join(server.dir, 'mail', user, 'Maildir', '.Archive');
    const lock = (mode: number) => {
      for (const dir of ['', 'cur', 'new', 'tmp']) chmodSync(join(archiveDir, dir), mode);
    };
    lock(0o555);
    onTestFinished(() => lock(0o700));
    await openThread(late.subject);
    const messageId = Number(await page.getByTestId('message').first().getAttribute('data-message-id'));
    const threadId = Number(
      await page.getByTestId('thread-row').filter({ hasText: late.subject }).getAttribute('data-thread-id'),
    );
    await page.getByTestId('thread-archive').click();
    await expect.poll(() => threadRow(late.subject).count()).toBe(0);
    const syncError = async () =>
      (await call(app, 'mail:thread', { threadId })).messages.find((m) => m.id === messageId)?.syncError ??
      null;
    await expect.poll(syncError, serverPoll).not.toBeNull();
    expect(await mailboxesOf(late.id)).toEqual(['INBOX']);

    // Skimmer keeps the move and says the server refused it, on the message.
    await folderButton('Archive').click();
    await openThread(late.subject);
    const note = page.getByTestId('sync-error');
    await note.waitFor();
    expect(await note.textContent()).toContain(await syncError());
    await page.screenshot({ path: join(shots, 'sync-error.png') });

    lock(0o700);
    await note.getByTestId('sync-retry').click();
    await note.getByTestId('sync-retried').waitFor();
    await expect.poll(() => mailboxesOf(late.id), serverPoll).toEqual(['Archive']);
    await expect.poll(syncError).toBeNull();
    // The reader hears of it from the sync and reads the message again.
    await expect.poll(() => note.count()).toBe(0);
    await folderButton('Inbox').click();
  });

  test('Test logs in, and Sync now runs a round to its end', async () => {
    await page.getByTestId('accounts-open').click();
    await dialog().waitFor();
    await accountRow().getByTestId('account-test').click();
    await expect
      .poll(() => accountRow().getByTestId('account-test-result').textContent())
      .toBe(`Logged in to ${server.host} and ${sink.host}.`);
    await accountRow().getByTestId('account-sync').click();
    await expect.poll(() => accountRow().getByTestId('account-sync-run').textContent()).toMatch(/^Synced: /);
    await expect.poll(() => accountRow().getByTestId('account-status').textContent()).toBe('Up to date');
  });

  test('a send on its way counts down, and Undo stops it and puts it in the drafts', async () => {
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    const queued = queue('ann@example.com', 'The figures');
    // The page reads the outbox when it starts and after each chat run; this send was queued behind its back.
    await page.reload();
    const item = outboxItem(queued);
    const text = item.getByTestId('outbox-text');
    await item.waitFor();
    const first = (await text.textContent()) ?? '';
    // How far it has counted depends on how fast the page came back, so any whole second of the window will do.
    expect(first).toMatch(/^Sending to ann@example\.com in ([1-9]|10) s$/);
    await expect.poll(() => text.textContent()).not.toBe(first);
    expect(await text.textContent()).toMatch(/^Sending to ann@example\.com in \d s$/);
    await page.screenshot({ path: join(shots, 'outbox-countdown.png') });
    await item.getByTestId('outbox-undo').click();
    await item.waitFor({ state: 'detached' });
    expect(outbox.get(queued)).toBeNull();
    await page
      .getByTestId('outbox-returned')
      .filter({ hasText: 'Back in Drafts: not sent to ann@example.com' })
      .waitFor();
    expect(await call(app, 'draft:list', {})).toEqual([
      expect.objectContaining({ to: ['ann@example.com'], subject: 'The figures' }),
    ]);
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (1)');
    await page.getByTestId('outbox-returned-close').click();
    await page.getByTestId('outbox-returned').waitFor({ state: 'detached' });
  });

  test('when its window ends the message goes out by SMTP, and the page says so', async () => {
    await markPage();
    // Queued behind the page's back: the watch's outbox event shows it, with no reload.
    const queued = queue('bob@example.com', 'Agenda');
    await outboxItem(queued).waitFor();
    await page.getByTestId('toast').filter({ hasText: 'Sent to bob@example.com.' }).waitFor();
    await outboxItem(queued).waitFor({ state: 'detached' });
    expect(outbox.get(queued)?.state).toBe('sent');
    expect(sink.received.map((m) => m.to)).toEqual([['bob@example.com']]);
    expect(await pageKept()).toBe(true);
  }, 60_000);

  test('a send that fails says why, and Retry tries again', async () => {
    await sink.close();
    sinkOpen = false;
    // In the SMTP server's place, one that hangs up on every connection: each attempt to send is counted.
    let attempts = 0;
    const hangUp = createServer((socket) => {
      attempts += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(sink.port, sink.host, resolve));
    onTestFinished(() => new Promise<void>((resolve) => hangUp.close(() => resolve())));

    const queued = queue('carol@example.com', 'Invoice');
    await page.reload();
    const item = outboxItem(queued);
    await expect.poll(() => item.getAttribute('data-state')).toBe('failed');
    expect(await item.getByTestId('outbox-text').textContent()).toMatch(
      /^Not sent to carol@example\.com: \S/,
    );
    await page.screenshot({ path: join(shots, 'outbox-failed.png') });
    // A failed message waits for the user: nothing tries it again by itself. A message queued now and due at
    // once is sent in the sender's next round, and fails the same way: once it has, the sender has been round
    // since, and the only knocks since are its own (each send knocks as often as the first did).
    const before = attempts;
    expect(before).toBeGreaterThan(0);
    const accountId = app.accounts.list()[0]?.id ?? 0;
    const probe = prepareOutbox(app.db, () => Date.now() - undoWindowMs).queue(accountId, {
      to: ['probe@example.com'],
      cc: [],
      subject: 'Probe',
      body: 'Due at once.',
      inReplyTo: null,
    }).id;
    await expect.poll(() => outbox.get(probe)?.state, serverPoll).toBe('failed');
    expect(attempts).toBe(2 * before);
    expect(outbox.get(queued)?.state).toBe('failed');
    outbox.take(probe);
    await outboxItem(probe).waitFor({ state: 'detached' });

    const beforeRetry = attempts;
    await item.getByTestId('outbox-retry').click();
    await expect.poll(() => attempts).toBeGreaterThan(beforeRetry);
    await expect.poll(() => item.getAttribute('data-state')).toBe('failed');
    expect(outbox.get(queued)?.state).toBe('failed');
  }, 60_000);

  test('"Back to drafts" takes a failed send out of the outbox and makes it a draft again', async () => {
    const [failed] = (await call(app, 'outbox:list', {})).filter((i) => i.state === 'failed');
    if (!failed) throw new Error('no failed send');
    const item = outboxItem(failed.id);
    expect(await page.getByTestId('drafts-open').textContent()).toBe('Drafts (1)');
    await item.getByTestId('outbox-dismiss').click();
    await item.waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: 'Back in your drafts: "Invoice".' }).waitFor();
    expect(outbox.get(failed.id)).toBeNull();
    expect(await call(app, 'draft:list', {})).toContainEqual(
      expect.objectContaining({
        to: ['carol@example.com'],
        cc: [],
        subject: 'Invoice',
        body: 'Sent by the accounts end-to-end test.',
      }),
    );
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (2)');
  });

  test('mail another client files into the open folder shows without a reload', async () => {
    await markPage();
    await folderButton('Archive').click();
    const filed = { id: '<filed@example.com>', subject: 'Filed by another client' };
    await server.append('Archive', [eml({ ...filed, body: 'Straight into Archive.' })]);
    await threadRow(filed.subject).waitFor({ timeout: 20_000 });
    expect(await pageKept()).toBe(true);
    await page.getByTestId('view-all').click();
  });

  test('the password never reached the page', async () => {
    expect(await pageShows(page, password)).toBe(false);
    expect(received.length).toBeGreaterThan(0);
    expect(received.filter((frame) => frame.includes(password))).toEqual([]);
    // The page sent it once, to save it.
    const carrying = sent.filter((frame) => frame.includes(password));
    expect(carrying).toHaveLength(1);
    expect(JSON.parse(carrying[0] ?? '{}')).toMatchObject({ channel: 'account:add', request: { password } });
  });

  test('Remove asks first, then takes the account and its mail out of Skimmer', async () => {
    await page.getByTestId('accounts-open').click();
    await dialog().waitFor();
    await accountRow().getByTestId('account-remove').click();
    const confirm = accountRow().getByTestId('account-remove-confirm');
    await confirm.waitFor();
    expect(await call(app, 'account:list', {})).toHaveLength(1);
    await confirm.click();
    await dialog().getByTestId('accounts-empty').waitFor();
    expect(await call(app, 'account:list', {})).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('thread-row').count()).toBe(0);
    // The server keeps the mail.
    expect(await mailboxesOf(late.id)).toEqual(['Archive']);
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
