// The composer end to end (issue 16, "Write mail"): the real server, bridge and outbox of the long-running app,
// the demo mailbox, an SMTP server on loopback, the built renderer in Debian's Chromium. What it proves: Reply,
// Reply all and Forward on a message card and r on the keyboard open the composer on a draft the main process
// made (To and Cc, one `Re:`/`Fwd:`, the quote or the forwarded headers, In-Reply-To and References), with the
// cursor at the top of the body; while the composer has the focus the mail keys stand aside; an entry that is
// not an address shows as such; typing is saved about a second after it stops, and the draft reopens from the
// Drafts dialog with its text; a reload mid-typing loses nothing; Discard asks when something was written; `c`,
// typing and Ctrl+Enter send through the outbox's Undo window to the SMTP server; a From of your own with its
// signature, a completion picked with the arrow keys, a Bcc and a file picked through <input type=file> (over
// one chunk) arrive at the SMTP server, the Bcc unseen in the headers and the file's bytes intact; a forward
// lists the original's files as chips; nothing leaves loopback.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { forwardedLine } from '../../shared/compose/forward.ts';
import { attachmentChunkBytes } from '../../shared/contract/index.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

// The demo mailbox is Jordan's: the account's own address is one of "your addresses", so reply all leaves it out.
const me = 'jordan.ellis@example.com';
// An address of Jordan's own for imported mail, with its signature.
const home = 'jordan@home.example.org';
// A file over one chunk (draft:attachChunk), every byte value in it.
const fileBytes = Buffer.from(Array.from({ length: attachmentChunkBytes + 4321 }, (_, i) => (i * 7) % 256));
let sink: SmtpSink;
const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  sink = await startSmtpSink({ user: me, pass: 'secret' });
  await importDemo(app);
  await call(app, 'account:add', {
    name: 'work',
    user: me,
    password: 'secret',
    // Nothing listens on port 1: the Sent copy waits in the write-back queue; the send itself is SMTP's.
    imap: { host: '127.0.0.1', port: 1, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await sink?.close();
});

const composer = (): Locator => page.getByTestId('composer');
const form = (): Locator => composer().locator('.compose-form');
const body = (): Locator => composer().getByTestId('composer-body');
const chips = (field: 'to' | 'cc' | 'bcc') =>
  composer()
    .getByTestId(`composer-${field}`)
    .getByTestId('address-chip')
    .evaluateAll((els) => els.map((el) => el.querySelector('.address-chip-text')?.textContent ?? ''));
const draftId = async () => Number(await form().getAttribute('data-draft-id'));
const ready = () => form().getAttribute('data-ready');
const card = (subjectFrom: string): Locator =>
  page.locator('[data-testid="message"]', { hasText: subjectFrom }).first();

async function openThread(text: string): Promise<void> {
  await page.locator('[data-testid="thread-row"]', { hasText: text }).first().click();
  await page.locator('.reader-pane .thread').waitFor();
}

async function closeComposer(): Promise<void> {
  await body().press('Escape');
  await composer().waitFor({ state: 'detached' });
}

/** The message id of a demo message, by its Message-ID header. */
function messageWithId(header: string): number {
  const row = app.db
    .prepare<[string], { id: number }>('SELECT id FROM messages WHERE message_id = ?')
    .get(header);
  if (!row) throw new Error(`no demo message ${header}`);
  return row.id;
}

const invite = '<invite.skylark-v2-go-no-go.0@example.com>';
const inviteReply = '<CAF3x9q2k.marcus.20261124@example.com>';
const inviteSubject = 'Invitation: Skylark v2 go/no-go @ Thu Dec 10, 2026 10am - 11am (PST)';

describe('the composer', () => {
  test('Reply all on a message card answers its sender and everyone else on it but you, quoting it', async () => {
    await openThread('go/no-go');
    await card('Priya Raman').getByTestId('message-reply-all').click();
    await expect.poll(ready).toBe('true');
    // As Gmail does: the sender and the original's To in To, its Cc in Cc; Jordan (you) in neither.
    expect(await chips('to')).toEqual([
      'priya.raman@example.com',
      'marcus.oyelaran@example.com',
      'kenji.watanabe@example.com',
    ]);
    expect(await chips('cc')).toEqual(['sofia.lindqvist@example.com']);
    expect(await composer().getByTestId('composer-subject').inputValue()).toBe(`Re: ${inviteSubject}`);
    const text = await body().inputValue();
    expect(text).toMatch(/^\n\nOn .+, Priya Raman wrote:\n> /);
    // The cursor is at the top, above the quote.
    expect(
      await body().evaluate((el: HTMLTextAreaElement) => [el.selectionStart, document.activeElement === el]),
    ).toEqual([0, true]);
    const shown = await call(app, 'draft:show', { id: await draftId() });
    expect(shown.inReplyToHeader).toBe(invite);
    expect(shown.references).toEqual([invite]);
    expect(shown.inReplyTo).toBe(messageWithId(invite));
    await body().pressSequentially('I will be there.');
    await page.screenshot({ path: join(shots, 'composer.png') });
    await closeComposer();
  });

  test('r answers the newest message of the open thread, with one Re: and the thread in References', async () => {
    await openThread('go/no-go');
    await page.locator('.reader-pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await expect.poll(ready).toBe('true');
    expect(await composer().getAttribute('aria-label')).toBe('Reply');
    expect(await chips('to')).toEqual(['marcus.oyelaran@example.com']);
    expect(await chips('cc')).toEqual([]);
    // The original's subject already starts with Re:, and gets no second one.
    expect(await composer().getByTestId('composer-subject').inputValue()).toBe(`Re: ${inviteSubject}`);
    expect(await body().inputValue()).toMatch(/\nOn .+, Marcus Oyelaran wrote:\n> /);
    const shown = await call(app, 'draft:show', { id: await draftId() });
    expect(shown.inReplyToHeader).toBe(inviteReply);
    expect(shown.references).toEqual([invite, inviteReply]);
  });

  test('while the composer has the focus, the mail keys stand aside', async () => {
    const threads = await page.locator('.reader-pane .thread').count();
    await composer().getByTestId('composer-attach').focus();
    await page.keyboard.press('e');
    await page.keyboard.press('c');
    // Neither archived the thread nor opened a new mail over the reply.
    expect(await composer().getAttribute('aria-label')).toBe('Reply');
    expect(await page.locator('.reader-pane .thread').count()).toBe(threads);
    expect(await call(app, 'mail:undoable', {})).toEqual([]);
    await closeComposer();
  });

  test('Forward carries one Fwd: and the original’s headers and text, to nobody yet', async () => {
    await openThread('go/no-go');
    await card('Priya Raman').getByTestId('message-forward').click();
    await expect.poll(ready).toBe('true');
    expect(await composer().getAttribute('aria-label')).toBe('Forward');
    expect(await chips('to')).toEqual([]);
    // A forward starts in To, having nobody to go to yet.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-to-input');
    expect(await composer().getByTestId('composer-subject').inputValue()).toBe(`Fwd: ${inviteSubject}`);
    const text = await body().inputValue();
    expect(text).toContain(`${forwardedLine}\nFrom: Priya Raman <priya.raman@example.com>\n`);
    expect(text).toContain(`Subject: ${inviteSubject}\n`);
    const shown = await call(app, 'draft:show', { id: await draftId() });
    expect(shown.inReplyToHeader).toBeNull();
    expect(shown.references).toEqual([]);
    // The original's files come along as chips, by reference (their bytes are read when it is sent).
    expect(shown.forwardOf).toBe(messageWithId(invite));
    expect(shown.attachments.length).toBeGreaterThan(0);
    const files = composer().getByTestId('composer-attachment');
    await expect.poll(() => files.count()).toBe(shown.attachments.length);
    expect(await files.first().getAttribute('data-origin')).toBe('forwarded');
    expect(await files.first().textContent()).toContain(shown.attachments[0]?.name ?? '?');
  });

  test('an entry that is not an address shows as such, and Send waits until it is fixed', async () => {
    const to = composer().getByTestId('composer-to-input');
    await to.fill('carol at example.org,');
    await expect.poll(() => chips('to')).toEqual(['carol at example.org']);
    expect(
      await composer().getByTestId('composer-to').getByTestId('address-chip').getAttribute('data-valid'),
    ).toBe('false');
    expect(await composer().getByTestId('composer-to-problem').textContent()).toBe(
      '“carol at example.org” is not an email address.',
    );
    await composer().getByTestId('composer-send').click();
    await expect
      .poll(() => composer().getByTestId('composer-error').textContent())
      .toBe('“carol at example.org” is not an email address. Fix it or remove it before sending.');
    expect(await call(app, 'outbox:list', {})).toEqual([]);
    // Backspace in the empty box takes the last chip back.
    await to.press('Backspace');
    await expect.poll(() => chips('to')).toEqual([]);
  });

  test('a paste of several addresses makes a chip of each', async () => {
    const to = composer().getByTestId('composer-to-input');
    await to.focus();
    await page.evaluate(() => {
      const input = document.getElementById('composer-to-input');
      const data = new DataTransfer();
      data.setData('text/plain', 'Ann Lee <ann@example.org>\nbob@example.org; carol@example.org');
      input?.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expect.poll(() => chips('to')).toEqual(['ann@example.org', 'bob@example.org', 'carol@example.org']);
  });

  test('Discard asks when something was written, then the draft is gone', async () => {
    const id = await draftId();
    await composer().getByTestId('composer-discard').click();
    await composer().getByTestId('composer-discard-ask').waitFor();
    expect((await call(app, 'draft:list', {})).some((d) => d.id === id)).toBe(true);
    await composer().getByTestId('composer-discard-confirm').click();
    await composer().waitFor({ state: 'detached' });
    expect((await call(app, 'draft:list', {})).some((d) => d.id === id)).toBe(false);
  });

  test('typing is saved a second after it stops, and the draft reopens from Drafts with its text', async () => {
    await openThread('go/no-go');
    await card('Priya Raman').getByTestId('message-reply').click();
    await expect.poll(ready).toBe('true');
    const id = await draftId();
    await body().pressSequentially('Count me in.');
    await expect.poll(() => composer().getByTestId('composer-save-state').textContent()).toBe('Saved');
    expect((await call(app, 'draft:show', { id })).body).toMatch(
      /^Count me in\.\n\nOn .+, Priya Raman wrote:\n/,
    );
    await closeComposer();
    await page.getByTestId('drafts-open').click();
    await page.locator(`[data-testid="draft-row"][data-draft-id="${id}"]`).click();
    await expect.poll(ready).toBe('true');
    expect(await draftId()).toBe(id);
    expect(await body().inputValue()).toMatch(/^Count me in\.\n\nOn .+, Priya Raman wrote:\n/);
    expect(await chips('to')).toEqual(['priya.raman@example.com']);
  });

  test('a reload while typing loses nothing: the composer opens again with every character', async () => {
    const id = await draftId();
    await body().press('End');
    await body().evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 0));
    await body().pressSequentially('Yes! ');
    // No wait for the autosave.
    await page.reload();
    await expect.poll(ready).toBe('true');
    expect(await draftId()).toBe(id);
    expect(await body().inputValue()).toMatch(/^Yes! Count me in\.\n/);
    await expect
      .poll(async () => (await call(app, 'draft:show', { id })).body)
      .toMatch(/^Yes! Count me in\.\n/);
    await closeComposer();
  });

  test('c writes a new mail, and Ctrl+Enter sends it through the outbox to the SMTP server', async () => {
    await page.locator('.reader-pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('c');
    await expect.poll(ready).toBe('true');
    expect(await composer().getAttribute('aria-label')).toBe('New message');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-to-input');
    await page.keyboard.type('erin@example.org');
    await page.keyboard.press('Tab');
    await composer().getByTestId('composer-subject').fill('Lunch on Friday');
    await body().fill('Noon at the usual place?');
    await body().press('Control+Enter');
    await composer().waitFor({ state: 'detached' });
    const item = page.getByTestId('outbox-item');
    await item.waitFor();
    expect(await item.getByTestId('outbox-text').textContent()).toMatch(/^Sending to erin@example\.org in /);
    // The undo window passes; then the background sender sends it.
    const [received] = await sink.waitFor(1, 30_000);
    expect(received?.to).toEqual(['erin@example.org']);
    const raw = received?.raw.toString('utf8') ?? '';
    expect(raw).toMatch(/^Subject: Lunch on Friday\r$/m);
    expect(raw).toMatch(/^From: .*jordan\.ellis@example\.com/m);
    expect(raw).toContain('Noon at the usual place?');
  }, 60_000);

  test('From, a completion picked with the keys, Bcc and a file picked from disk all reach the SMTP server', async () => {
    await call(app, 'identity:add', { address: home, name: 'Jordan Ellis', signature: 'Jordan, at home' });
    sink.received.length = 0;
    // The Compose button at the top of the folder list, as Gmail's.
    await page.getByTestId('compose-open').click();
    await expect.poll(ready).toBe('true');
    // From: another of your addresses brings its signature.
    await composer().getByTestId('composer-from').selectOption(home);
    await expect.poll(() => body().inputValue()).toBe('\n\n-- \nJordan, at home\n\n');
    // The people in the mailbox whose name or address starts with what is typed; the arrow picks the second.
    const offered = await call(app, 'mail:contacts', { prefix: 'k' });
    expect(offered.length).toBeGreaterThan(1);
    await composer().getByTestId('composer-to-input').focus();
    await page.keyboard.type('k');
    const options = composer().getByTestId('completion-option');
    await expect.poll(() => options.count()).toBe(offered.length);
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const pick = offered[1]?.address ?? '';
    await page.keyboard.press('Enter');
    await expect.poll(() => chips('to')).toEqual([pick]);
    expect(await composer().getByTestId('completion').count()).toBe(0);
    // Bcc waits behind its link.
    expect(await composer().getByTestId('composer-bcc').count()).toBe(0);
    await composer().getByTestId('composer-show-bcc').click();
    await composer().getByTestId('composer-bcc-input').fill('boss@example.org,');
    await expect.poll(() => chips('bcc')).toEqual(['boss@example.org']);
    await composer().getByTestId('composer-subject').fill('Photos');
    await body().evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 0));
    await body().pressSequentially('Here they are.');
    // The picker's files, as <input type=file> gives them: bytes of every value, more than one chunk.
    await composer()
      .getByTestId('composer-file-input')
      .setInputFiles({ name: 'trail.bin', mimeType: 'application/octet-stream', buffer: fileBytes });
    const file = composer().getByTestId('composer-attachment');
    await expect.poll(() => file.count(), { timeout: 30_000 }).toBe(1);
    expect(await file.textContent()).toContain('trail.bin');
    expect(await file.getAttribute('data-origin')).toBe('file');
    await expect.poll(() => composer().getByTestId('composer-upload').count()).toBe(0);
    await composer().getByTestId('composer-send').click();
    await composer().waitFor({ state: 'detached' });
    const [received] = await sink.waitFor(1, 30_000);
    if (!received) throw new Error('nothing received');
    expect([...received.to].sort()).toEqual(['boss@example.org', pick].sort());
    const parsed = await simpleParser(received.raw);
    expect(parsed.from?.value[0]?.address).toBe(home);
    expect(parsed.bcc).toBeUndefined();
    expect(received.raw.toString('latin1')).not.toContain('boss@example.org');
    expect(parsed.text).toContain('Here they are.\n\n-- \nJordan, at home');
    const sent = parsed.attachments.find((a) => a.filename === 'trail.bin');
    expect(sent?.content.equals(fileBytes)).toBe(true);
  }, 90_000);

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
