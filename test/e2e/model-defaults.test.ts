// One model choice end to end (issue 17, DESIGN §5 "Choosing a model"): the real server and bridge, the built
// renderer in Debian's Chromium, and a local server speaking OpenAI Chat (its model list and the `text`
// transcript of fixtures/sse). What it proves: a model listed once is offered in Settings and in every model field
// after a reload without asking the service again; a default chosen in Settings is what the chat sends with
// nothing typed, and what the reader's summary field starts from; a field the user changed keeps their choice.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { loadCorpus } from '../../fixtures/sse/corpus.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const text = loadCorpus('openai-chat').find((f) => f.name === 'text');
if (!text) throw new Error('fixtures/sse/openai-chat has no text');

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
let modelServer: Server;
const foreign: string[] = [];
const listings: string[] = [];
const chatModels: string[] = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      listings.push(req.url);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2' }, { id: 'qwen3:8b' }] }));
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions' && text) {
      chatModels.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string }).model);
      res.writeHead(text.status, text.headers);
      res.end(text.body);
      return;
    }
    res.writeHead(404).end();
  });
}

const options = (testId: string) =>
  page
    .locator(`[data-testid="${testId}-options"] option`)
    .evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));

beforeAll(async () => {
  await importDemo(app);
  modelServer = createServer(answer);
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`;
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: base });
  ({ served, browser, page } = await openApp(app, { foreign }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  modelServer?.closeAllConnections();
  await new Promise((resolve) => modelServer?.close(resolve));
});

describe('Default models', () => {
  test('offers a listed model in Settings and keeps the list across a reload without asking again', async () => {
    await page.getByTestId('services-open').click();
    await page.getByTestId('default-models').waitFor();
    await page.getByTestId('service-models').click();
    await expect
      .poll(() => options('default-model-chat'))
      .toEqual(['local/llama3.2', 'local/qwen3:8b', 'local/']);
    expect(listings).toHaveLength(1);

    await page.reload();
    await page.getByTestId('services-open').click();
    await expect
      .poll(() => options('default-model-summary'))
      .toEqual(['local/llama3.2', 'local/qwen3:8b', 'local/']);
    expect(listings).toHaveLength(1);
  });

  test('sends the chat default with nothing typed in the chat', async () => {
    await page.getByTestId('default-model-chat').fill('local/qwen3:8b');
    await page.getByTestId('default-model-chat-save').click();
    await page.getByTestId('default-model-summary').fill('local/llama3.2');
    await page.getByTestId('default-model-summary-save').click();
    await expect
      .poll(() => call(app, 'model:defaults', {}))
      .toEqual({
        chat: 'local/qwen3:8b',
        summary: 'local/llama3.2',
        triage: null,
      });
    await page.keyboard.press('Escape');

    await page.getByTestId('chat-open').click();
    await page.getByTestId('tools-toggle').uncheck();
    expect(await page.getByTestId('chat-model').inputValue()).toBe('local/qwen3:8b');
    await page.getByTestId('chat-input').fill('Hello');
    await page.getByTestId('chat-input').press('Enter');
    await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
    expect(chatModels).toEqual(['qwen3:8b']);
  });

  test('starts the reader’s summary field from its default, and keeps a model the user typed there', async () => {
    await page.getByTestId('mail-open').click();
    await page.getByTestId('thread-row').first().click();
    await expect.poll(() => page.getByTestId('summary-model').inputValue()).toBe('local/llama3.2');
    await page.getByTestId('summary-model').fill('local/other');

    await page.getByTestId('services-open').click();
    await page.getByTestId('default-model-summary').fill('local/qwen3:8b');
    await page.getByTestId('default-model-summary-save').click();
    await expect.poll(async () => (await call(app, 'model:defaults', {})).summary).toBe('local/qwen3:8b');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('summary-model').inputValue()).toBe('local/other');

    await page.reload();
    await page.getByTestId('thread-row').first().click();
    await expect.poll(() => page.getByTestId('summary-model').inputValue()).toBe('local/qwen3:8b');
    expect(foreign).toEqual([]);
  });
});
