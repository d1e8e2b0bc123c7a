// One frame of an answer that cannot be read (DESIGN §6, fixtures/sse `invalid-json`), end to end: the real
// server and bridge, the built renderer in Debian's Chromium, and a local server replaying an Anthropic stream
// with one broken `data:` line between good ones. The page shows the answer finished, without the lost piece,
// marked "Part of this answer could not be read.", and the mark is still there after a reload.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { loadCorpus } from '../../fixtures/sse/corpus.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const broken = loadCorpus('anthropic').find((f) => f.name === 'invalid-json');
if (!broken) throw new Error('fixtures/sse/anthropic has no invalid-json');
// What arrived of the answer: every text delta the mapper could read.
const kept = broken.expected.flatMap((e) => {
  const event = e as { type: string; text?: string };
  return event.type === 'text_delta' && event.text !== undefined ? [event.text] : [];
});

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const foreign: string[] = [];
let served: Served;
let browser: Browser;
let page: Page;
let modelServer: Server;

beforeAll(async () => {
  modelServer = createServer((req, res) => {
    req.resume();
    res.writeHead(broken.status, broken.headers);
    res.end(broken.body);
  });
  await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`;
  await call(app, 'service:add', { name: 'claude', kind: 'anthropic', baseUrl: base });
  ({ served, browser, page } = await openApp(app, { foreign }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  await new Promise((resolve) => modelServer?.close(resolve));
});

const answer = (): Locator => page.locator('[data-testid="chat-turn"][data-role="assistant"]').last();

test('an answer with an unreadable frame finishes, is marked, and keeps the mark after a reload', async () => {
  await page.getByTestId('chat-open').click();
  await page.getByTestId('chat-input').waitFor();
  await page.getByTestId('tools-toggle').uncheck();
  await page.getByTestId('chat-model').fill('claude/claude-sonnet-4-5');
  await page.getByTestId('chat-input').fill('Any invoices?');
  await page.getByTestId('chat-input').press('Enter');

  await page.locator('[data-testid="chat-turn"][data-outcome="done"]').waitFor();
  expect(await answer().getByTestId('chat-turn-text').textContent()).toBe(kept.join(''));
  expect(await answer().getByTestId('chat-notice').textContent()).toBe(
    'Part of this answer could not be read.',
  );
  expect(await answer().getByTestId('chat-error').count()).toBe(0);
  await page.screenshot({ path: join(shots, 'chat-notice.png') });

  await page.reload();
  await page.getByTestId('chat-open').click();
  await page.getByTestId('conversation-row').first().click();
  await answer().getByTestId('chat-notice').waitFor();
  expect(await answer().getByTestId('chat-turn-text').textContent()).toBe(kept.join(''));
  expect(foreign).toEqual([]);
});
