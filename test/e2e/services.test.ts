// The "Model services" settings screen end to end: the real server and bridge, the built renderer in
// Debian's Chromium, and a tiny OpenAI-compatible model server on loopback that records every request.
// What it proves (DESIGN §4, §5): saving never contacts the service, "List models" does (with the key),
// the exact endpoint Skimmer computed is what the row shows, and a saved key never reaches the page.
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp, pageShows } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const key = 'local-test-key-123';
const wrongKey = 'wrong-test-key-456';
const plainHttpSentence = 'Plain http:// is allowed only for a server on this computer; use https://.';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
let modelServer: Server;
let port = 0;
const foreign: string[] = [];
const modelRequests: { method: string; url: string; authorized: boolean }[] = [];

// Lists two models to the right key only; anything else gets a 401 whose body echoes the header it got,
// so a leak of the provider's body into the page would show the key.
function answerModels(req: IncomingMessage, res: ServerResponse): void {
  const authorized = req.headers.authorization === `Bearer ${key}`;
  modelRequests.push({ method: req.method ?? '', url: req.url ?? '', authorized });
  res.setHeader('content-type', 'application/json');
  if (req.method === 'GET' && req.url === '/v1/models' && authorized) {
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] }));
    return;
  }
  res.statusCode = 401;
  res.end(
    JSON.stringify({
      error: {
        message: `Incorrect API key provided: ${req.headers.authorization ?? '(none)'}`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    }),
  );
}

beforeAll(async () => {
  modelServer = createServer(answerModels);
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  port = (modelServer.address() as AddressInfo).port;
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
  await new Promise((resolve) => modelServer?.close(resolve));
});

const row = (name: string): Locator =>
  page.locator(`[data-testid="service-row"][data-service-name="${name}"]`);

async function addService(name: string, baseUrl: string, serviceKey?: string): Promise<void> {
  const form = page.getByTestId('service-form');
  await form.getByTestId('service-name-input').fill(name);
  await form.getByTestId('service-kind-input').selectOption('openai');
  await form.getByTestId('service-url-input').fill(baseUrl);
  if (serviceKey) await form.getByTestId('service-key-input').fill(serviceKey);
  await form.getByTestId('service-save').click();
}

describe('Model services settings', () => {
  test('opens from the top bar with no service and no request to any service', async () => {
    await page.getByTestId('services-open').click();
    await page.getByTestId('services-dialog').waitFor();
    await page.getByTestId('services-empty').waitFor();
    expect(await page.getByTestId('service-row').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('service-vault').textContent())
      .toContain('file permissions only');
    expect(modelRequests).toEqual([]);
  });

  test('previews the endpoint while typing and shows the saved endpoint without contacting the service', async () => {
    const form = page.getByTestId('service-form');
    await form.getByTestId('service-url-input').fill(`http://127.0.0.1:${port}/v1/chat/completions`);
    await expect
      .poll(() => form.getByTestId('service-endpoint-preview').textContent())
      .toContain(`http://127.0.0.1:${port}/v1/chat/completions`);
    expect(await form.getByTestId('service-key-input').getAttribute('type')).toBe('password');
    expect(await form.getByTestId('service-key-input').getAttribute('autocomplete')).toBe('off');

    await addService('ollama', `http://127.0.0.1:${port}/v1/chat/completions`, key);
    await row('ollama').waitFor();
    expect(await row('ollama').getByTestId('service-endpoint').textContent()).toBe(
      `http://127.0.0.1:${port}/v1/chat/completions`,
    );
    expect(await row('ollama').getByTestId('service-key').textContent()).toBe('Key saved');
    expect(await page.getByTestId('service-saved').textContent()).toContain(
      `http://127.0.0.1:${port}/v1/chat/completions`,
    );
    await expect.poll(() => form.getByTestId('service-key-input').inputValue()).toBe('');
    expect(await pageShows(page, key)).toBe(false);
    expect(modelRequests).toEqual([]);
  });

  test('lists the models only when asked, sending the saved key', async () => {
    await row('ollama').getByTestId('service-models').click();
    await expect
      .poll(() => row('ollama').getByTestId('service-model').allTextContents())
      .toEqual(['llama3.2', 'qwen3:8b']);
    expect(modelRequests).toEqual([{ method: 'GET', url: '/v1/models', authorized: true }]);
    expect(await pageShows(page, key)).toBe(false);
    await page.screenshot({ path: join(shots, 'services.png') });
  });

  test('Test connection is an explicit action that reaches the service once', async () => {
    const before = modelRequests.length;
    await row('ollama').getByTestId('service-test').click();
    await expect
      .poll(() => row('ollama').getByTestId('service-test-result').textContent())
      .toBe('Connected: the service offers 2 models.');
    expect(modelRequests.length - before).toBe(1);
    expect(await pageShows(page, key)).toBe(false);
  });

  test('refuses plain http to another computer with the sentence from Skimmer', async () => {
    await addService('remote', 'http://api.example.com/v1');
    await expect.poll(() => page.getByTestId('service-form-error').textContent()).toBe(plainHttpSentence);
    expect(await row('remote').count()).toBe(0);
    expect(await pageShows(page, key)).toBe(false);
  });

  test('replaces the key without showing either key, and reports the refusal in its own words', async () => {
    await row('ollama').getByTestId('service-edit').click();
    await row('ollama').getByTestId('service-edit-key').fill(wrongKey);
    await page.screenshot({ path: join(shots, 'services-edit.png') });
    await row('ollama').getByTestId('service-edit-save').click();
    await row('ollama').getByTestId('service-edit-form').waitFor({ state: 'detached' });
    // Models listed with the old key are forgotten once the service changes.
    await expect.poll(() => row('ollama').getByTestId('service-model').count()).toBe(0);
    await row('ollama').getByTestId('service-models').click();
    await expect
      .poll(() => row('ollama').getByTestId('service-models-error').textContent())
      .toBe('The service did not accept the API key.');
    expect(modelRequests.at(-1)).toEqual({ method: 'GET', url: '/v1/models', authorized: false });
    expect(await pageShows(page, wrongKey)).toBe(false);
    expect(await pageShows(page, key)).toBe(false);
  });

  test('looks right in the dark theme and closes with Esc', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('services-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('services-open').click();
    await row('ollama').waitFor();
    await row('ollama').getByTestId('service-models').click();
    await row('ollama').getByTestId('service-models-error').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(shots, 'services-dark.png') });
  });

  test('removes a service only after confirmation', async () => {
    await row('ollama').getByTestId('service-remove').click();
    expect(await row('ollama').count()).toBe(1);
    await page.screenshot({ path: join(shots, 'services-remove.png') });
    await row('ollama').getByTestId('service-remove-confirm').click();
    await expect.poll(() => row('ollama').count()).toBe(0);
    await page.getByTestId('services-empty').waitFor();
    expect(foreign).toEqual([]);
    expect(modelRequests.every((r) => r.method === 'GET' && r.url === '/v1/models')).toBe(true);
  });
});
