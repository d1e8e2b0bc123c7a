// The chat pane end to end: the real server and bridge, the built renderer in Debian's Chromium, and a local
// server that speaks OpenAI Chat by replaying the hand-written transcripts (fixtures/sse). What it proves
// (DESIGN §5, §6, §12): the answer streams into the page as text and is stored; Stop (button or Esc) keeps
// what arrived; a rate limit shows its countdown and then the answer; a refused key shows Skimmer's sentence
// and only the redacted provider detail; no service is contacted unless the user asks; nothing leaves loopback.
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { type CorpusFixture, loadCorpus } from '../../fixtures/sse/corpus.ts';
import { call } from '../support/bridge.ts';
import { openApp, pageShows } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const corpus = loadCorpus('openai-chat');
function fixture(name: string): CorpusFixture {
  const found = corpus.find((f) => f.name === name);
  if (!found) throw new Error(`fixtures/sse/openai-chat has no ${name}`);
  return found;
}
const text = fixture('text');
const rateLimited = fixture('http-429-retry-after');
const unauthorized = fixture('http-401');

// What the page must show: the fixture's text deltas, concatenated.
const deltas = text.expected.flatMap((e) => {
  const event = e as { type: string; text?: string };
  return event.type === 'text_delta' && event.text !== undefined ? [event.text] : [];
});
const answer = deltas.join('');
// The first two SSE events of `text`: the role chunk and the first delta.
const firstEvents = `${text.body.toString('utf8').split('\n\n').slice(0, 2).join('\n\n')}\n\n`;
const partial = deltas[0] ?? '';

// The key of the service that refuses it. Not shaped like a known key, so only masking by value hides it.
const chatKey = 'sk-test-canary-chat-0011';
const [fixtureKey = ''] = unauthorized.mustNotContain;

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
let modelServer: Server;
let base = '';
const foreign: string[] = [];
const modelRequests: { method: string; path: string }[] = [];
let busyRequests = 0;
// The retry after the rate limit is held until the test has seen the countdown (`releaseRetry`), so the
// countdown cannot come and go between two looks on a busy machine.
let releaseRetry: () => void = () => {};
const retryReleased = new Promise<void>((resolve) => {
  releaseRetry = resolve;
});

function replay(res: ServerResponse, f: CorpusFixture, body: Buffer | string = f.body): void {
  res.writeHead(f.status, f.headers);
  res.end(body);
}

// One path prefix per behaviour, so each service the test adds gets its own: /answer, /stall, /busy, /locked.
function answerChat(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '';
  modelRequests.push({ method: req.method ?? '', path });
  req.resume();
  if (req.method === 'GET' && path === '/answer/v1/models') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4.1-mini' }, { id: 'llama3.2' }] }));
    return;
  }
  if (req.method !== 'POST' || !path.endsWith('/v1/chat/completions')) {
    res.writeHead(404).end();
    return;
  }
  const [, behaviour] = path.split('/');
  if (behaviour === 'answer') {
    replay(res, text);
  } else if (behaviour === 'stall') {
    // The first two events, then silence with the socket open: only Stop ends this turn.
    res.writeHead(text.status, text.headers);
    res.write(firstEvents);
  } else if (behaviour === 'busy') {
    busyRequests++;
    if (busyRequests === 1) replay(res, rateLimited);
    else void retryReleased.then(() => replay(res, text));
  } else if (behaviour === 'locked') {
    // The provider's body echoes the key it was sent, as OpenAI's does.
    const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    replay(res, unauthorized, unauthorized.body.toString('utf8').replaceAll(fixtureKey, sent));
  } else {
    res.writeHead(404).end();
  }
}

beforeAll(async () => {
  modelServer = createServer(answerChat);
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}`;
  ({ served, browser, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
  }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  modelServer?.closeAllConnections();
  await new Promise((resolve) => modelServer?.close(resolve));
});

const turns = (): Locator => page.getByTestId('chat-turn');
const lastAnswer = (): Locator => page.locator('[data-testid="chat-turn"][data-role="assistant"]').last();
const row = (title: string): Locator =>
  page
    .getByTestId('conversation-row')
    .filter({ has: page.locator('.conversation-title', { hasText: title }) });

async function openChat(): Promise<void> {
  await page.getByTestId('chat-open').click();
  await page.getByTestId('chat-view').waitFor();
}

// A fresh conversation with `model`, the prompt sent with Enter.
async function ask(model: string, prompt: string): Promise<void> {
  await page.getByTestId('chat-new').click();
  await page.getByTestId('chat-model').fill(model);
  await page.getByTestId('chat-input').fill(prompt);
  await page.getByTestId('chat-input').press('Enter');
}

async function reloadAndOpen(title: string): Promise<void> {
  await page.reload();
  await openChat();
  await row(title).click();
  await expect.poll(() => turns().count()).toBeGreaterThan(0);
}

describe('Chat pane', () => {
  test('says there is no service and offers the Services screen, without contacting anything', async () => {
    await openChat();
    await page.getByTestId('chat-no-service').waitFor();
    expect(await page.getByTestId('chat-input').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'chat-no-service.png') });
    await page.getByTestId('chat-services-open').click();
    await page.getByTestId('services-dialog').waitFor();
    await page.getByTestId('services-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('services-dialog').waitFor({ state: 'detached' });

    await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: `${base}/answer/v1` });
    await call(app, 'service:add', { name: 'slow', kind: 'openai', baseUrl: `${base}/stall/v1` });
    await call(app, 'service:add', { name: 'busy', kind: 'openai', baseUrl: `${base}/busy/v1` });
    await call(app, 'service:add', {
      name: 'locked',
      kind: 'openai',
      baseUrl: `${base}/locked/v1`,
      key: chatKey,
    });
    await page.reload();
    await openChat();
    await page.getByTestId('chat-input').waitFor();
    // This suite is about plain chat; the mail tools (on by default) have their own, test/e2e/approvals.test.ts.
    // The choice is kept in the page's storage, so it holds across the reloads below.
    await page.getByTestId('tools-toggle').uncheck();
    expect(await page.getByTestId('chat-no-service').count()).toBe(0);
    expect(await page.getByTestId('chat-model').inputValue()).toBe('');
    expect(modelRequests).toEqual([]);
  });

  test('streams the answer in as text, with the usage of the turn', async () => {
    await page.getByTestId('chat-model').fill('local/gpt-4.1-mini');
    const input = page.getByTestId('chat-input');
    await input.fill('Any invoices');
    await input.press('Shift+Enter');
    await input.pressSequentially('from Alice?');
    expect(await input.inputValue()).toBe('Any invoices\nfrom Alice?');
    expect(await turns().count()).toBe(0);
    await input.press('Enter');

    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    expect(await turns().evaluateAll((els) => els.map((el) => el.getAttribute('data-role')))).toEqual([
      'user',
      'assistant',
    ]);
    expect(await turns().first().getByTestId('chat-turn-text').textContent()).toBe(
      'Any invoices\nfrom Alice?',
    );
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(answer);
    expect(await lastAnswer().getByTestId('chat-usage').textContent()).toBe('25 in · 12 out tokens');
    expect(await input.inputValue()).toBe('');
    expect(await page.getByTestId('chat-send').isVisible()).toBe(true);
    expect(await page.getByTestId('chat-stop').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'chat.png') });
  });

  test('lists the conversation, and it survives a reload', async () => {
    await expect.poll(() => page.getByTestId('conversation-row').count()).toBe(1);
    expect(await row('Any invoices from Alice?').getAttribute('aria-current')).toBe('true');
    await reloadAndOpen('Any invoices from Alice?');
    expect(await turns().count()).toBe(2);
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(answer);
    expect(await lastAnswer().getByTestId('chat-usage').textContent()).toBe('25 in · 12 out tokens');
    // The model used is the one the next message goes to.
    await expect.poll(() => page.getByTestId('chat-model').inputValue()).toBe('local/gpt-4.1-mini');
  });

  test('Stop mid-answer keeps what arrived, and it is stored', async () => {
    await ask('slow/m', 'Slow answer, stopped by the button');
    await expect
      .poll(() => page.locator('[data-outcome="streaming"] [data-testid="chat-turn-text"]').textContent())
      .toBe(partial);
    await page.getByTestId('chat-stop').click();
    await page.locator('[data-testid="chat-turn"][data-outcome="stopped"]').waitFor();
    expect(await lastAnswer().getByTestId('chat-stopped').textContent()).toContain('Stopped');
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(partial);
    expect(await page.getByTestId('chat-stop').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'chat-stopped.png') });

    await reloadAndOpen('Slow answer, stopped by the button');
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(partial);
    // After the reload it still says it was stopped (chat:history carries how each turn ended).
    expect(await lastAnswer().getByTestId('chat-stopped').textContent()).toContain('Stopped');
  });

  test('Esc stops a running answer too', async () => {
    await ask('slow/m', 'Slow answer, stopped with Esc');
    await expect
      .poll(() => page.locator('[data-outcome="streaming"] [data-testid="chat-turn-text"]').textContent())
      .toBe(partial);
    // The focus is still in the message box: Esc there stops the answer.
    await page.getByTestId('chat-input').press('Escape');
    await page.locator('[data-testid="chat-turn"][data-outcome="stopped"]').waitFor();
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(partial);
    expect(await page.getByTestId('chat-stop').count()).toBe(0);
  });

  test('another conversation says it waits while one answers, and leads back to the running one', async () => {
    await ask('slow/m', 'Slow answer, while another waits');
    await expect
      .poll(() => page.locator('[data-outcome="streaming"] [data-testid="chat-turn-text"]').textContent())
      .toBe(partial);
    await page.getByTestId('chat-new').click();
    await page.getByTestId('chat-input').fill('Meanwhile, a question');
    await page.getByTestId('chat-composer-waits').waitFor();
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(true);
    await page.getByTestId('chat-input').press('Enter');
    expect(await page.getByTestId('chat-input').inputValue()).toBe('Meanwhile, a question');
    await page.getByTestId('chat-go-to-running').click();
    await page.locator('[data-outcome="streaming"]').waitFor();
    expect(await page.getByTestId('chat-composer-waits').count()).toBe(0);
    await page.getByTestId('chat-stop').click();
    await page.locator('[data-testid="chat-turn"][data-outcome="stopped"]').waitFor();
  });

  test('a rate limit shows its countdown, then the answer arrives', async () => {
    await ask('busy/m', 'Busy service');
    await page.getByTestId('chat-retry').waitFor();
    // Where the countdown has got to depends on how fast this look came: any of its steps will do.
    expect(await page.getByTestId('chat-retry').textContent()).toMatch(
      /^Rate limited — (retrying in [12] s|retrying now…)/,
    );
    expect(await page.getByTestId('chat-stop').isVisible()).toBe(true);
    await page.screenshot({ path: join(shots, 'chat-retry.png') });
    releaseRetry();
    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    expect(await lastAnswer().getByTestId('chat-turn-text').textContent()).toBe(answer);
    expect(await page.getByTestId('chat-retry').count()).toBe(0);
    expect(busyRequests).toBe(2);
  });

  test('a refused key shows the sentence from Skimmer and only the redacted detail', async () => {
    await ask('locked/m', 'Locked service');
    const error = lastAnswer().getByTestId('chat-error');
    await error.waitFor();
    expect(await error.getByTestId('chat-error-message').textContent()).toBe(
      'The service did not accept the API key.',
    );
    const detail = error.getByTestId('chat-error-detail');
    expect(await detail.getAttribute('open')).toBeNull();
    await detail.locator('summary').click();
    const shown = (await detail.textContent()) ?? '';
    expect(shown).toContain('Incorrect API key provided: [redacted]');
    expect(shown).not.toContain(chatKey);
    expect(shown).not.toContain(fixtureKey);
    expect(await pageShows(page, chatKey)).toBe(false);
    // Model and provider text is text: nothing in the chat links out or loads anything.
    expect(await page.locator('.chat-main a, .chat-main img').count()).toBe(0);

    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(shots, 'chat-dark.png') });
    await page.getByTestId('theme-toggle').click();
  });

  test('lists models only when asked, and suggests them in the model field', async () => {
    expect(modelRequests.filter((r) => r.method === 'GET')).toEqual([]);
    await page.getByTestId('chat-model').fill('local/');
    await page.getByTestId('chat-list-models').click();
    await expect
      .poll(() => page.getByTestId('chat-models-listed').textContent())
      .toBe('2 models from local: pick one in the field.');
    // The field offers what Skimmer kept of the list (model:lists), read again once the list came.
    const options = () =>
      page
        .locator('[data-testid="chat-model-options"] option')
        .evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
    await expect
      .poll(options)
      .toEqual(expect.arrayContaining(['local/gpt-4.1-mini', 'local/llama3.2', 'slow/m']));
    expect(modelRequests.filter((r) => r.method === 'GET')).toEqual([
      { method: 'GET', path: '/answer/v1/models' },
    ]);
  });

  test('made no request outside loopback, and none to a service that was not asked', async () => {
    expect(foreign).toEqual([]);
    expect(
      modelRequests.every(
        (r) => (r.method === 'POST' && r.path.endsWith('/v1/chat/completions')) || r.path.endsWith('/models'),
      ),
    ).toBe(true);
  });
});
