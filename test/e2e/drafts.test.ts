// Drafts end to end (issue 4: "create_draft — a local draft the user can edit and send"): the real server and
// bridge, the built renderer in Debian's Chromium. The drafts are made the way the assistant's create_draft
// makes them (electron/mail/store/undo.ts); the chat is not what is under test here. What it proves: the top bar
// counts the drafts and the dialog lists them; an edit is saved to Skimmer, and one left unsaved is saved when
// another draft is opened; an address that is not one is named while typing and blocks Save; Skimmer's
// sentence shows when it refuses a save (an address it rejects) or a send (no recipient, no account that can
// send); Discard asks first, then the draft is gone; a send goes to the outbox, whose bar counts down with
// Undo, and Undo puts the message back in the drafts with its text, where the bar's note opens it; a draft
// the assistant writes in a chat (a scripted model on loopback) shows in the top bar's count when the run
// ends, and leaves it when Undo takes it back; nothing leaves loopback.
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
const editor = (): Locator => dialog().getByTestId('draft-editor');
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

  test('an edited body is saved to Skimmer', async () => {
    await row(lunchId).click();
    await expect.poll(() => editor().getByTestId('draft-body').inputValue()).toBe('Noon?');
    await editor().getByTestId('draft-body').fill('Noon at the usual place?');
    await expect.poll(() => editor().getByTestId('draft-state').textContent()).toBe('Unsaved changes');
    await editor().getByTestId('draft-save').click();
    await expect.poll(() => editor().getByTestId('draft-state').textContent()).toBe('Saved');
    expect((await stored(lunchId))?.body).toBe('Noon at the usual place?');
    await page.screenshot({ path: join(shots, 'drafts.png') });
  });

  test('an address that is not one is named while typing, and one Skimmer refuses shows its sentence', async () => {
    const to = editor().getByTestId('draft-to');
    await to.fill('carol@example.org, dan at example.org');
    await expect
      .poll(() => editor().getByTestId('draft-to-problem').textContent())
      .toBe('“dan at example.org” is not an email address. Separate addresses with commas.');
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    expect(await editor().getByTestId('draft-save').isDisabled()).toBe(true);
    expect(await editor().getByTestId('draft-send').isDisabled()).toBe(true);
    // The check while typing is a simple one; what it lets through, Skimmer may still refuse, in its words.
    await to.fill('carol@exa_mple.org');
    await expect.poll(() => editor().getByTestId('draft-to-problem').count()).toBe(0);
    await editor().getByTestId('draft-save').click();
    await expect
      .poll(() => editor().getByTestId('draft-error').textContent())
      .toBe('The request is not valid (to.0): Invalid email address');
    expect((await stored(lunchId))?.to).toEqual(['carol@example.org']);
    await to.fill('carol@example.org, dan@example.org');
    // Editing again takes Skimmer's refusal away: it was about what was there before.
    await expect.poll(() => editor().getByTestId('draft-error').count()).toBe(0);
    expect(await editor().getByTestId('draft-to-problem').count()).toBe(0);
    await editor().getByTestId('draft-save').click();
    await expect
      .poll(async () => (await stored(lunchId))?.to)
      .toEqual(['carol@example.org', 'dan@example.org']);
  });

  test('opening another draft saves the edits of the open one', async () => {
    await editor().getByTestId('draft-subject').fill('Lunch on Friday');
    await row(blankId).click();
    await expect.poll(() => editor().getByTestId('draft-subject').inputValue()).toBe('Notes');
    await expect.poll(async () => (await stored(lunchId))?.subject).toBe('Lunch on Friday');
    await expect.poll(() => row(lunchId).textContent()).toContain('Lunch on Friday');
  });

  test('a send Skimmer refuses shows its sentence: no recipient', async () => {
    await editor().getByTestId('draft-send').click();
    await expect
      .poll(() => editor().getByTestId('draft-error').textContent())
      .toBe('Add at least one recipient before sending.');
    expect(await stored(blankId)).toBeDefined();
  });

  test('a send Skimmer refuses shows its sentence: no account can send', async () => {
    await row(lunchId).click();
    await expect.poll(() => editor().getByTestId('draft-subject').inputValue()).toBe('Lunch on Friday');
    await editor().getByTestId('draft-send').click();
    await expect
      .poll(() => editor().getByTestId('draft-error').textContent())
      .toMatch(/^No account can send mail yet/);
    expect(await stored(lunchId)).toBeDefined();
    expect(await call(app, 'outbox:list', {})).toEqual([]);
  });

  test('Discard asks first, then the draft is gone', async () => {
    await row(blankId).click();
    await expect.poll(() => editor().getByTestId('draft-subject').inputValue()).toBe('Notes');
    await editor().getByTestId('draft-discard').click();
    await editor().getByTestId('draft-discard-ask').waitFor();
    // Nothing is gone until the user confirms.
    expect(await stored(blankId)).toBeDefined();
    await editor().getByTestId('draft-discard-confirm').click();
    await expect.poll(() => row(blankId).count()).toBe(0);
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
    await row(lunchId).click();
    await editor().getByTestId('draft-send').click();
    await dialog().waitFor({ state: 'detached' });
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

  test('the note opens the Drafts dialog on that draft, with its text, to edit or discard', async () => {
    const note = page.getByTestId('outbox-returned');
    const id = Number(await note.getAttribute('data-draft-id'));
    await note.getByTestId('outbox-open-draft').click();
    await dialog().waitFor();
    await expect.poll(() => row(id).getAttribute('aria-current')).toBe('true');
    await expect
      .poll(() => editor().getByTestId('draft-to').inputValue())
      .toBe('carol@example.org, dan@example.org');
    expect(await editor().getByTestId('draft-subject').inputValue()).toBe('Lunch on Friday');
    expect(await editor().getByTestId('draft-body').inputValue()).toBe('Noon at the usual place?');
    await expect.poll(() => note.count()).toBe(0);
    await editor().getByTestId('draft-discard').click();
    await editor().getByTestId('draft-discard-confirm').click();
    await expect.poll(() => row(id).count()).toBe(0);
    expect(await stored(id)).toBeUndefined();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
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
