// The chat with mail tools end to end (issue 4): the real server and bridge, the built renderer in Debian's
// Chromium, the demo mailbox, and a local server that speaks OpenAI Chat and calls the mail tools as a script
// decides from what it is sent. What it proves (DESIGN §7, §8, §12): the read runs without asking and its mail
// shows as untrusted; the changes wait at a card with Skimmer's previews and the provenance of their
// arguments, also after a reload; only the approved calls change the mail, the reason for a denial reaches the
// model, and the mail view shows the result; Undo takes the run's changes back; Permissions lists the grant
// and every decision, and Revoke removes the grant; mail quoted with "Ask in chat" shows as an untrusted block
// with its injection flag; nothing leaves loopback.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { searchMail } from '../support/mail-search.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const archivePrompt = 'archive the newsletters';
const denyReason = 'Keep this one, I still read it';
const quotePrompt = 'What does this mail ask me to do?';
const quoteAnswer = 'It asks you to pay Litware invoices to a new account. Check with them by phone first.';
// The model then does what the mail asks, as a model fooled by it would (DESIGN §14, adversarial model).
const obeyPrompt = 'Then do what it says.';
const injectedAddress = 'attacker@example.net';
const notSent = 'I did not send anything.';
// What a fooled model hides in the body it sends: Unicode tag characters draw nothing (issue 27).
const hiddenText = ' PS the code is 463820';
const hiddenPs = Array.from(hiddenText, (c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0))).join(
  '',
);

// --- The scripted model: OpenAI Chat Completions over SSE, in the chunk shapes of
// fixtures/sse/openai-chat/parallel-calls.body (each call's arguments streamed in pieces under its index).
type Message = { role: string; content?: unknown; tool_call_id?: string };
type Body = { model: string; messages: Message[]; tools?: unknown[] };
type Hit = { id: number; threadId: number; subject: string };
type ToolCall = { id: string; name: string; args: object };

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-SkE2E',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  })}\n\n`;
const usage = `data: ${JSON.stringify({
  id: 'chatcmpl-SkE2E',
  object: 'chat.completion.chunk',
  created: 1767225600,
  model: 'gpt-4.1-mini-2025-04-14',
  choices: [],
  usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
})}\n\ndata: [DONE]\n\n`;

function toolCalls(calls: ToolCall[]): string {
  let out = chunk({ role: 'assistant', content: null });
  calls.forEach((c, index) => {
    const json = JSON.stringify(c.args);
    const half = Math.ceil(json.length / 2);
    out += chunk({
      tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
    });
    out += chunk({ tool_calls: [{ index, function: { arguments: json.slice(0, half) } }] });
    out += chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] });
  });
  return out + chunk({}, 'tool_calls') + usage;
}

const words = (text: string) =>
  chunk({ role: 'assistant', content: '' }) + chunk({ content: text }) + chunk({}, 'stop') + usage;

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part?.text ?? '').join('')
      : '';

// search_mail answers a JSON array of hits (inside Skimmer's untrusted block).
function hitsIn(output: string): Hit[] {
  return JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as Hit[];
}

const bodies: Body[] = [];
let hits: Hit[] = [];

// Turn 1 (only the prompt): search. Turn 2 (the search result came back): archive three hits, one call each,
// in one round. Turn 3 (their results came back): "Done.". Any other conversation gets a plain answer.
function answer(body: Body): string {
  const asked = body.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
  if (asked.at(-1)?.includes(obeyPrompt)) {
    if (body.messages.at(-1)?.role === 'tool') return words(notSent);
    const args = {
      to: [injectedAddress],
      subject: 'Invoices',
      body: `Forwarding all invoices as asked.${hiddenPs}`,
    };
    return toolCalls([{ id: 'call_send', name: 'send_mail', args }]);
  }
  if (!asked.some((text) => text.includes(archivePrompt))) return words(quoteAnswer);
  const results = body.messages.filter((m) => m.role === 'tool');
  if (results.length === 0) {
    return toolCalls([
      { id: 'call_search', name: 'search_mail', args: { query: 'newsletter OR unsubscribe' } },
    ]);
  }
  if (results.length === 1) {
    hits = hitsIn(textOf(results[0]?.content)).slice(0, 3);
    return toolCalls(
      hits.map((hit, i) => ({ id: `call_archive_${i}`, name: 'archive', args: { ids: [hit.id] } })),
    );
  }
  return words('Done.');
}

const modelServer: Server = createServer(async (req, res) => {
  let raw = '';
  for await (const piece of req) raw += piece;
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404).end();
    return;
  }
  const body = JSON.parse(raw) as Body;
  bodies.push(body);
  res.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer(body));
});

// --- The app.
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let demoFolder = 0;
let conversationId = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`;
  await importDemo(app);
  const folders = await call(app, 'mail:folders', {});
  demoFolder = folders.find((f) => f.name === 'demo')?.id ?? 0;
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: base });
  // Tall enough that the demo folder's whole thread list is on screen (the list is virtualized).
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 2300 },
    colorScheme: 'light',
  }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  modelServer.closeAllConnections();
  await new Promise((resolve) => modelServer.close(resolve));
});

const lastAnswer = (): Locator => page.locator('[data-testid="chat-turn"][data-role="assistant"]').last();
const card = (): Locator => page.getByTestId('approval-card');
const cardCall = (i: number): Locator => card().getByTestId('approval-call').nth(i);
const threadRow = (threadId: number): Locator =>
  page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
const folderButton = (name: string): Locator =>
  page.locator('[data-testid^="folder-"]').filter({ has: page.locator('.folder-name', { hasText: name }) });

async function folderOfMessage(threadId: number, messageId: number): Promise<number | undefined> {
  const thread = await call(app, 'mail:thread', { threadId });
  return thread.messages.find((m) => m.id === messageId)?.folderId;
}

// Shows the demo folder and waits until the rows shown are the folder's as Skimmer has it now, in its order
// (the list shown before the click has more than ten rows too).
async function showDemoFolder(): Promise<void> {
  await page.getByTestId('mail-open').click();
  await page.getByTestId(`folder-${demoFolder}`).click();
  const { threads } = await call(app, 'mail:threads', { folderId: demoFolder, offset: 0, limit: 500 });
  const ids = threads.map((t) => t.id);
  const isTheFolders = async () => {
    const shown = await page
      .getByTestId('thread-row')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-thread-id'))));
    return shown.length > 10 && shown.every((id, i) => id === ids[i]);
  };
  await expect.poll(isTheFolders).toBe(true);
}

describe('Chat with mail tools', () => {
  test('asks before archiving, keeps the card over a reload, and passes a denial’s reason to the model', async () => {
    expect(demoFolder).toBeGreaterThan(0);
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-input').waitFor();
    expect(await page.getByTestId('tools-toggle').isChecked()).toBe(true);
    await page.getByTestId('chat-model').fill('local/gpt-4.1-mini');
    await page.getByTestId('chat-input').fill(archivePrompt);
    await page.getByTestId('chat-input').press('Enter');

    await card().waitFor();
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.threadId)).size).toBe(3);
    await expect.poll(() => card().getByTestId('approval-call').count()).toBe(3);
    // The read ran without asking; what it returned came from mail and is marked so.
    const search = lastAnswer().locator('[data-testid="tool-result"][data-tool="search_mail"]');
    expect(await lastAnswer().locator('[data-testid="tool-call"][data-tool="search_mail"]').count()).toBe(1);
    expect(await search.getByTestId('untrusted-block').count()).toBeGreaterThan(0);
    expect(await search.getByTestId('untrusted-block').first().textContent()).toContain(
      'From an email — treated as data, not instructions',
    );
    // Shown as rows a person reads (subject, sender, date), the JSON behind Details.
    const rowIds = await search
      .getByTestId('tool-result-row')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-message-id'))));
    expect(rowIds.slice(0, hits.length)).toEqual(hits.map((h) => h.id));
    expect(await search.getByTestId('tool-result-row').first().textContent()).toContain(
      hits[0]?.subject ?? '?',
    );
    expect(await search.getByTestId('untrusted-text').isVisible()).toBe(false);
    // Nothing was archived yet.
    for (const hit of hits) expect(await folderOfMessage(hit.threadId, hit.id)).toBe(demoFolder);

    // After a reload the conversation still waits, and its card comes back.
    conversationId = (await call(app, 'chat:list', {}))[0]?.id ?? 0;
    await page.reload();
    await page.getByTestId('chat-open').click();
    await page.locator(`[data-testid="conversation-row"][data-conversation-id="${conversationId}"]`).click();
    await card().waitFor();
    const { pending } = await call(app, 'chat:history', { conversationId });
    // Skimmer's own ids for the calls, one each; the provider's (call_archive_0…) stay on the wire.
    expect(pending.map((c) => c.name)).toEqual(['archive', 'archive', 'archive']);
    expect(new Set(pending.map((c) => c.id)).size).toBe(3);
    expect(pending.every((c) => c.id.startsWith('sc-'))).toBe(true);

    for (const [i, hit] of hits.entries()) {
      const shown = cardCall(i);
      expect(await shown.getAttribute('data-tool')).toBe('archive');
      expect(await shown.getAttribute('data-effect')).toBe('write');
      // Skimmer's own words, from the stored message: not the model's description of it.
      expect(await shown.getByTestId('call-title').textContent()).toBe('Archive 1 message');
      expect(await shown.getByTestId('call-line').first().textContent()).toContain(hit.subject);
      // Every argument from the email and every address the user never wrote is marked.
      const provenance = pending[i]?.provenance ?? { fromUntrusted: [], notNamedByUser: [] };
      const marks = await shown.getByTestId('provenance-mark').count();
      if (provenance.fromUntrusted.length + provenance.notNamedByUser.length === 0) expect(marks).toBe(0);
      else expect(marks).toBeGreaterThanOrEqual(1);
    }
    await cardCall(0).getByTestId('show-args').click();
    expect(JSON.parse((await cardCall(0).getByTestId('raw-args').textContent()) ?? '')).toEqual({
      ids: [hits[0]?.id],
    });
    await page.screenshot({
      path: join(shots, 'approval-card.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });

    // Deny the third with a reason: the card waits for the other two.
    await cardCall(2).getByTestId('deny-reason').fill(denyReason);
    await cardCall(2).getByTestId('deny-call').click();
    await expect.poll(() => cardCall(2).getAttribute('data-decision')).toBe('deny');
    expect(await card().isVisible()).toBe(true);
    await cardCall(0).getByTestId('grant-choice').selectOption('conversation');
    await cardCall(0).getByTestId('approve-call').click();
    expect(await card().isVisible()).toBe(true);
    await cardCall(1).getByTestId('approve-call').click();

    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    await expect.poll(() => card().count()).toBe(0);
    await expect.poll(() => lastAnswer().getByTestId('chat-turn-text').last().textContent()).toBe('Done.');
    const results = lastAnswer().locator('[data-testid="tool-result"][data-tool="archive"]');
    expect(await results.evaluateAll((els) => els.map((el) => el.getAttribute('data-error')))).toEqual([
      'false',
      'false',
      'true',
    ]);
    // The model heard the denial and its reason with the call's result.
    const third = bodies.at(-1);
    const declined = third?.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_archive_2');
    expect(textOf(declined?.content)).toContain(denyReason);
    // The Undo bar reads what the run did once the run has ended (chat-store's finish).
    await expect.poll(() => page.getByTestId('undo-summary').textContent()).toContain('Archived 2 messages');
    await page.screenshot({
      path: join(shots, 'approval-done.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });
  });

  test('the mail view shows the approved two archived, and Undo brings them back', async () => {
    const [first, second, denied] = hits as [Hit, Hit, Hit];
    await showDemoFolder();
    await expect.poll(() => threadRow(first.threadId).count()).toBe(0);
    expect(await threadRow(second.threadId).count()).toBe(0);
    expect(await threadRow(denied.threadId).count()).toBe(1);
    await expect.poll(() => folderButton('Archive').locator('.folder-total').textContent()).toBe('2');
    expect(await folderOfMessage(denied.threadId, denied.id)).toBe(demoFolder);
    await page.screenshot({
      path: join(shots, 'archived.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });

    await page.getByTestId('undo-button').click();
    await expect.poll(() => threadRow(first.threadId).count()).toBe(1);
    await expect.poll(() => threadRow(second.threadId).count()).toBe(1);
    await expect.poll(() => page.getByTestId('undo-done').textContent()).toContain('Archived 2 messages');
    expect(await folderOfMessage(first.threadId, first.id)).toBe(demoFolder);
    expect(await folderOfMessage(second.threadId, second.id)).toBe(demoFolder);
    expect(await call(app, 'mail:undoable', { limit: 5 })).toEqual([]);
  });

  test('Permissions lists the grant and every decision, and Revoke removes the grant', async () => {
    await page.getByTestId('permissions-open').click();
    const dialog = page.getByTestId('permissions-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('grant-row').count()).toBe(1);
    expect(await dialog.getByTestId('grant-row').getAttribute('data-tool')).toBe('archive');
    expect(await dialog.getByTestId('grant-row').textContent()).toContain(archivePrompt);
    const rows = dialog.getByTestId('activity-row');
    await expect.poll(() => rows.count()).toBe(4);
    const logged = await rows.evaluateAll((els) =>
      els.map(
        (el) =>
          `${el.getAttribute('data-tool')} ${el.getAttribute('data-decision')} ${el.getAttribute('data-decided-by')}`,
      ),
    );
    expect(logged.sort()).toEqual(
      [
        'archive approved user',
        'archive approved user',
        'archive denied user',
        'search_mail allowed gate',
      ].sort(),
    );
    await page.screenshot({
      path: join(shots, 'permissions.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });

    await dialog.getByTestId('grant-revoke').click();
    await dialog.getByTestId('grants-empty').waitFor();
    expect(await call(app, 'grant:list', {})).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('a new message instead of an answer declines the open calls, and nothing changes', async () => {
    await page.getByTestId('chat-open').click();
    await page.getByTestId('chat-new').click();
    await page.getByTestId('chat-input').fill(archivePrompt);
    await page.getByTestId('chat-input').press('Enter');
    await card().waitFor();
    const waiting = (await call(app, 'chat:list', {}))[0]?.id ?? 0;
    expect(waiting).not.toBe(conversationId);

    // The composer still works while the card is open; sending answers the card with "no".
    await page.getByTestId('chat-input').fill('Never mind, leave them where they are.');
    await page.getByTestId('chat-input').press('Enter');
    await expect.poll(() => card().count()).toBe(0);
    await page.locator('[data-testid="chat-turn"][data-role="assistant"][data-outcome="done"]').waitFor();

    const declined = (bodies.at(-1)?.messages ?? []).filter(
      (m) => m.role === 'tool' && m.tool_call_id?.startsWith('call_archive_'),
    );
    expect(declined).toHaveLength(3);
    expect(declined.every((m) => !textOf(m.content).includes('changed'))).toBe(true);
    for (const hit of hits) expect(await folderOfMessage(hit.threadId, hit.id)).toBe(demoFolder);
    expect(await call(app, 'mail:undoable', { limit: 5 })).toEqual([]);
    expect((await call(app, 'chat:history', { conversationId: waiting })).pending).toEqual([]);
  });

  test('"Ask in chat" quotes the mail as an untrusted block with its injection flag', async () => {
    await page.getByTestId('mail-open').click();
    await searchMail(page, 'remittance');
    await page.getByTestId('search-hit').first().click();
    const message = page.getByTestId('message').filter({ hasText: 'Updated remittance details' }).first();
    await message.waitFor();
    const messageId = Number(await message.getAttribute('data-message-id'));
    await message.getByTestId('ask-in-chat').click();

    await page.getByTestId('chat-view').waitFor();
    // A new conversation, not the one that was open: nothing in it yet.
    const chip = page.getByTestId('quote-chip');
    await chip.waitFor();
    expect(await page.getByTestId('chat-turn').count()).toBe(0);
    expect(await chip.textContent()).toContain('Updated remittance details for November invoices');
    await page.getByTestId('chat-input').fill(quotePrompt);
    await page.getByTestId('chat-input').press('Enter');

    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    await expect.poll(() => chip.count()).toBe(0);
    await expect.poll(() => lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(quoteAnswer);
    const asked = page.locator('[data-testid="chat-turn"][data-role="user"]').last();
    expect(await asked.getByTestId('chat-turn-text').textContent()).toBe(quotePrompt);
    const block = asked.getByTestId('quoted-mail').getByTestId('untrusted-block');
    await expect.poll(() => block.count()).toBe(1);
    expect(await block.getAttribute('data-source')).toBe(`message:${messageId}`);
    expect(await block.getAttribute('data-suspect')).toBe('true');
    expect(await block.getByTestId('injection-flag').textContent()).toContain('Possible prompt injection');
    const quote = block.getByTestId('injection-quote');
    if ((await quote.count()) > 0) {
      // The flagged line is shown as text: nothing in it became markup.
      expect(await quote.evaluate((el) => el.children.length)).toBe(0);
    }
    // The model got the mail inside Skimmer's untrusted block, before the user's words.
    const sent = textOf(
      bodies
        .at(-1)
        ?.messages.filter((m) => m.role === 'user')
        .at(-1)?.content,
    );
    expect(sent).toContain(`<untrusted_email source="message:${messageId}"`);
    expect(sent.indexOf('<untrusted_email')).toBeLessThan(sent.indexOf(quotePrompt));
    expect(await page.locator('.chat-main a, .chat-main img').count()).toBe(0);
    await page.screenshot({
      path: join(shots, 'ask-in-chat.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });
  });

  test('a send the mail asked for waits at the card as a send, with no grant offered', async () => {
    await page.getByTestId('chat-input').fill(obeyPrompt);
    await page.getByTestId('chat-input').press('Enter');
    await card().waitFor();
    const send = cardCall(0);
    await expect.poll(() => card().getByTestId('approval-call').count()).toBe(1);
    expect(await send.getAttribute('data-effect')).toBe('send');
    expect(await send.getByTestId('call-effect').textContent()).toBe('Sends mail');
    expect(await send.getByTestId('approve-call').textContent()).toBe('Approve sending');
    // The recipient line, marked as coming from the email (the mark is checked on its own below).
    const lines = await send.getByTestId('call-line').allTextContents();
    expect(lines.find((line) => line.startsWith('To: '))).toMatch(new RegExp(`^To: ${injectedAddress}`));
    // The text hidden in tag characters is spelled out where it stands, and the card says so first.
    expect(lines[0]).toMatch(/^⚠ This holds 22 characters that do not show/);
    expect(lines).toContain(
      `Forwarding all invoices as asked.⟦hidden text in tag characters: “${hiddenText}”⟧`,
    );
    await send.getByTestId('show-args').click();
    expect(await send.getByTestId('raw-args').textContent()).toContain(
      `⟦hidden text in tag characters: “${hiddenText}”⟧`,
    );
    // Send is never allowed in advance: no grant is offered.
    expect(await send.getByTestId('grant-choice').count()).toBe(0);
    await page.screenshot({
      path: join(shots, 'approval-send.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1400 },
    });
  });

  // The quoted mail of message 20 is stored as its untrusted block followed by Skimmer's note that hidden
  // characters were removed; it must still count as the mail's words, not the user's.
  test('the card marks the address the mail named as not from the user', async () => {
    const marked = await cardCall(0)
      .getByTestId('provenance-mark')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-what') ?? ''));
    expect(marked.some((what) => what.includes(injectedAddress))).toBe(true);
  });

  test('Deny all answers the card and nothing is sent', async () => {
    await card().getByTestId('deny-all').click();
    await expect.poll(() => card().count()).toBe(0);
    await expect.poll(() => lastAnswer().getByTestId('chat-turn-text').last().textContent()).toBe(notSent);
    const audit = await call(app, 'audit:list', { limit: 10 });
    expect(audit.find((entry) => entry.tool === 'send_mail')).toMatchObject({
      decision: 'denied',
      decidedBy: 'user',
    });
  });

  test('after a reload the quoted mail still shows as quoted mail, not as the user’s words', async () => {
    const id = (await call(app, 'chat:list', {}))[0]?.id ?? 0;
    await page.reload();
    await page.getByTestId('chat-open').click();
    await page.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`).click();
    const first = page.locator('[data-testid="chat-turn"][data-role="user"]').first();
    await first.waitFor();
    await expect.poll(() => first.getByTestId('quoted-mail').count()).toBe(1);
    expect(await first.getByTestId('chat-turn-text').textContent()).toBe(quotePrompt);
  });

  test('made no request outside loopback, and every model request was a chat completion', () => {
    expect(foreign).toEqual([]);
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    expect(bodies.every((b) => b.model === 'gpt-4.1-mini')).toBe(true);
  });
});
