// Drafts end to end (issue 4: "create_draft — a local draft the user can edit and send"; issue 16: drafts
// are written in the composer): the real server and bridge, the built renderer in Debian's Chromium. The drafts
// are made the way the assistant's create_draft makes them (electron/mail/store/undo.ts); the chat is not what
// is under test here. What it proves: the top bar counts the drafts and the dialog lists them; a row opens its
// draft in the composer, where an edit is saved to Skimmer, and one not saved yet is saved when another draft
// is opened; an address that is not one is named while typing, is not saved, and blocks Send; Skimmer's
// sentence shows when it refuses a send (no account that can send); Discard asks first, then the draft is
// gone; a send goes to the outbox, whose bar counts down with Undo, and Undo puts the message back in the
// drafts with its text, where the bar's note opens it in the composer; a draft the assistant writes in a chat
// (a scripted model on loopback) shows in the top bar's count when the run ends, and leaves it when Undo takes
// it back; nothing leaves loopback.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import { prepareOutbox } from '../../electron/mail/send/outbox.ts';
import { prepareMailActions } from '../../electron/mail/store/undo.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { serveScript } from '../support/chat-script.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

// A scripted model (OpenAI Chat over SSE, the chunk shapes of fixtures/sse/openai-chat/): asked anything, it
// calls create_draft once; given the call's result, it says "Drafted.".
const drafted = { to: ['erin@example.org'], cc: [], subject: 'Board minutes', body: 'Attached below.' };
const sse = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-SkDraft',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;
function scripted(lastRole: string | undefined): string {
  if (lastRole === 'tool')
    return `${sse({ role: 'assistant', content: 'Drafted.' })}${sse({}, 'stop')}data: [DONE]\n\n`;
  const call = {
    index: 0,
    id: 'call_draft',
    type: 'function',
    function: { name: 'create_draft', arguments: '' },
  };
  return (
    sse({ role: 'assistant', content: null, tool_calls: [call] }) +
    sse({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(drafted) } }] }) +
    sse({}, 'tool_calls') +
    'data: [DONE]\n\n'
  );
}
const model = await serveScript<{ messages?: { role: string }[] }>((body) =>
  scripted(body.messages?.at(-1)?.role),
);

// No background: nothing is sent by SMTP, so a queued message waits in the outbox for Undo.
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let lunchId = 0;
let blankId = 0;

beforeAll(async () => {
  const actions = prepareMailActions(app.db);
  lunchId = actions.createDraft({
    to: ['carol@example.org'],
    cc: [],
    subject: 'Lunch',
    body: 'Noon?',
    inReplyTo: null,
  }).id;
  blankId = actions.createDraft({ to: [], cc: [], subject: 'Notes', body: 'For later.', inReplyTo: null }).id;
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
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
  await model.close();
});

const dialog = (): Locator => page.getByTestId('drafts-dialog');
const row = (id: number): Locator => dialog().locator(`[data-testid="draft-row"][data-draft-id="${id}"]`);
const editor = (): Locator => page.getByTestId('composer');
const chips = (field: 'to' | 'cc') =>
  editor()
    .getByTestId(`composer-${field}`)
    .getByTestId('address-chip')
    .evaluateAll((els) => els.map((el) => el.querySelector('.address-chip-text')?.textContent ?? ''));
// Opens the draft in the composer from the Drafts dialog.
async function open(id: number): Promise<void> {
  if ((await dialog().count()) === 0) await page.getByTestId('drafts-open').click();
  await row(id).click();
  await dialog().waitFor({ state: 'detached' });
  await expect
    .poll(() => editor().locator(`.compose-form[data-draft-id="${id}"]`).getAttribute('data-ready'))
    .toBe('true');
}
const stored = async (id: number) => (await call(app, 'draft:list', {})).find((d) => d.id === id);

describe('The Drafts dialog', () => {
  test('the top bar counts the drafts, and the dialog lists them', async () => {
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (2)');
    await page.getByTestId('drafts-open').click();
    await dialog().waitFor();
    await expect.poll(() => dialog().getByTestId('draft-row').count()).toBe(2);
    expect(await row(lunchId).textContent()).toContain('Lunch');
    expect(await row(lunchId).textContent()).toContain('To carol@example.org');
    expect(await row(blankId).textContent()).toContain('Notes');
    expect(await row(blankId).textContent()).toContain('No recipient yet');
  });

  test('a row opens its draft in the composer, where an edited body is saved to Skimmer', async () => {
    await open(lunchId);
    expect(await editor().getByTestId('composer-body').inputValue()).toBe('Noon?');
    expect(await chips('to')).toEqual(['carol@example.org']);
    await editor().getByTestId('composer-body').fill('Noon at the usual place?');
    await expect.poll(() => editor().getByTestId('composer-save-state').textContent()).toBe('Saved');
    expect((await stored(lunchId))?.body).toBe('Noon at the usual place?');
    await page.screenshot({ path: join(shots, 'drafts.png') });
  });

  test('an address that is not one is named while typing, is not saved, and blocks Send', async () => {
    const to = editor().getByTestId('composer-to-input');
    await to.fill('dan at example.org,');
    await expect
      .poll(() => editor().getByTestId('composer-to-problem').textContent())
      .toBe('“dan at example.org” is not an email address.');
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    await editor().getByTestId('composer-send').click();
    await expect
      .poll(() => editor().getByTestId('composer-error').textContent())
      .toBe('“dan at example.org” is not an email address. Fix it or remove it before sending.');
    await expect.poll(() => editor().getByTestId('composer-save-state').textContent()).toBe('Saved');
    expect((await stored(lunchId))?.to).toEqual(['carol@example.org']);
    await editor().getByRole('button', { name: 'Remove dan at example.org' }).click();
    await to.fill('dan@example.org,');
    // Editing again takes the sentence away: it was about what was there before.
    await expect.poll(() => editor().getByTestId('composer-error').count()).toBe(0);
    expect(await editor().getByTestId('composer-to-problem').count()).toBe(0);
    await expect
      .poll(async () => (await stored(lunchId))?.to)
      .toEqual(['carol@example.org', 'dan@example.org']);
  });

  test('opening another draft saves the edits of the open one', async () => {
    await editor().getByTestId('composer-subject').fill('Lunch on Friday');
    // At once, before the autosave's second.
    await open(blankId);
    expect(await editor().getByTestId('composer-subject').inputValue()).toBe('Notes');
    expect((await stored(lunchId))?.subject).toBe('Lunch on Friday');
    await page.getByTestId('drafts-open').click();
    await expect.poll(() => row(lunchId).textContent()).toContain('Lunch on Friday');
  });

  test('a send with no recipient is refused with a sentence', async () => {
    await row(blankId).click();
    await dialog().waitFor({ state: 'detached' });
    await editor().getByTestId('composer-send').click();
    await expect
      .poll(() => editor().getByTestId('composer-error').textContent())
      .toBe('Add at least one recipient before sending.');
    expect(await stored(blankId)).toBeDefined();
  });

  test('a send Skimmer refuses shows its sentence: no account can send', async () => {
    await open(lunchId);
    expect(await editor().getByTestId('composer-subject').inputValue()).toBe('Lunch on Friday');
    await editor().getByTestId('composer-send').click();
    await expect
      .poll(() => editor().getByTestId('composer-error').textContent())
      .toMatch(/^No account can send mail yet/);
    expect(await stored(lunchId)).toBeDefined();
    expect(await call(app, 'outbox:list', {})).toEqual([]);
  });

  test('Discard asks first, then the draft is gone', async () => {
    await open(blankId);
    expect(await editor().getByTestId('composer-subject').inputValue()).toBe('Notes');
    await editor().getByTestId('composer-discard').click();
    await editor().getByTestId('composer-discard-ask').waitFor();
    // Nothing is gone until the user confirms.
    expect(await stored(blankId)).toBeDefined();
    await editor().getByTestId('composer-discard-confirm').click();
    await editor().waitFor({ state: 'detached' });
    expect(await stored(blankId)).toBeUndefined();
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (1)');
  });

  test('Send puts the draft in the outbox, where it counts down, and Undo puts it back in Drafts', async () => {
    // An account that can send; saving it connects to nothing, and without the background sender nothing
    // goes out, so the message waits in the outbox.
    await call(app, 'account:add', {
      name: 'local',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: '127.0.0.1', port: 1143, tls: 'none' },
      smtp: { host: '127.0.0.1', port: 1025, tls: 'none' },
    });
    await open(lunchId);
    await editor().getByTestId('composer-send').click();
    await editor().waitFor({ state: 'detached' });
    const item = page.getByTestId('outbox-item');
    await item.waitFor();
    // How far it has counted depends on how fast the page showed it, so any whole second of the window will do.
    expect(await item.getByTestId('outbox-text').textContent()).toMatch(
      /^Sending to carol@example\.org and 1 other in ([1-9]|10) s$/,
    );
    expect(await call(app, 'draft:list', {})).toEqual([]);
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts');
    await page.screenshot({ path: join(shots, 'draft-sent.png') });
    const queued = Number(await item.getAttribute('data-outbox-id'));
    expect(prepareOutbox(app.db).get(queued)).toMatchObject({
      to: ['carol@example.org', 'dan@example.org'],
      subject: 'Lunch on Friday',
      state: 'queued',
    });
    await item.getByTestId('outbox-undo').click();
    await item.waitFor({ state: 'detached' });
    const note = page.getByTestId('outbox-returned');
    await note.waitFor();
    expect(await note.getByTestId('outbox-returned-text').textContent()).toBe(
      'Back in Drafts: not sent to carol@example.org and 1 other. Edit it or discard it there.',
    );
    expect(prepareOutbox(app.db).get(queued)).toBeNull();
    const back = await call(app, 'draft:list', {});
    expect(back).toEqual([
      expect.objectContaining({
        to: ['carol@example.org', 'dan@example.org'],
        cc: [],
        subject: 'Lunch on Friday',
        body: 'Noon at the usual place?',
      }),
    ]);
    expect(Number(await note.getAttribute('data-draft-id'))).toBe(back[0]?.id);
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (1)');
    await page.screenshot({ path: join(shots, 'undo-send.png') });
  });

  test('the note opens that draft in the composer, with its text, to edit or discard', async () => {
    const note = page.getByTestId('outbox-returned');
    const id = Number(await note.getAttribute('data-draft-id'));
    await note.getByTestId('outbox-open-draft').click();
    await expect
      .poll(() => editor().locator(`.compose-form[data-draft-id="${id}"]`).getAttribute('data-ready'))
      .toBe('true');
    expect(await chips('to')).toEqual(['carol@example.org', 'dan@example.org']);
    expect(await editor().getByTestId('composer-subject').inputValue()).toBe('Lunch on Friday');
    expect(await editor().getByTestId('composer-body').inputValue()).toBe('Noon at the usual place?');
    await expect.poll(() => note.count()).toBe(0);
    await editor().getByTestId('composer-discard').click();
    await editor().getByTestId('composer-discard-confirm').click();
    await editor().waitFor({ state: 'detached' });
    expect(await stored(id)).toBeUndefined();
  });

  test('a draft the assistant writes in a chat shows in the count, and Undo takes it back', async () => {
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-model').fill('local/gpt-4.1-mini');
    await page.getByTestId('chat-input').fill('Draft the board minutes to Erin.');
    await page.getByTestId('chat-input').press('Enter');
    const card = page.getByTestId('approval-card');
    await card.waitFor();
    // Nothing is written before the user approves.
    expect(await call(app, 'draft:list', {})).toEqual([]);
    await card.getByTestId('approve-call').first().click();
    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    // The run's end reads the drafts again: no reload, no dialog.
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts (1)');
    await page.getByTestId('drafts-open').click();
    await expect.poll(() => dialog().getByTestId('draft-row').textContent()).toContain('Board minutes');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    await page.getByTestId('undo-button').click();
    await expect.poll(() => page.getByTestId('drafts-open').textContent()).toBe('Drafts');
    expect(await call(app, 'draft:list', {})).toEqual([]);
  });

  test('made no request outside loopback', () => {
    expect(foreign).toEqual([]);
  });
});
