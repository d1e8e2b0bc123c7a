// DESIGN §13: the browser mode's token does not linger. A persistent Chromium profile (what a user's own
// browser is) keeps every address it opened, the printed one included, in History, Sessions and Top Sites.
// After the app has been used and the browser closed, nothing kept there may open Skimmer again.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import { main } from '../../electron/cli/main.ts';
import { type Served, serve } from '../../electron/web/server.ts';
import { chromiumArgs, chromiumPath, launchChromium } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';
import { openAddress, openBridge } from '../support/web-bridge.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const profile = tempDir('skimmer-profile-');
let served: Served;

beforeAll(async () => {
  served = await serve(app);
});
afterAll(async () => {
  await served?.close();
  await app.close();
});

// The profile's records of where the browser has been: History (and its journal), Top Sites, Sessions.
function historyFiles(): string[] {
  const dir = join(profile, 'Default');
  const sessions = join(dir, 'Sessions');
  return [
    ...['History', 'History-journal', 'History-wal', 'Top Sites', 'Top Sites-journal'].map((f) =>
      join(dir, f),
    ),
    ...(existsSync(sessions) ? readdirSync(sessions).map((f) => join(sessions, f)) : []),
  ].filter((f) => existsSync(f));
}

describe('the browser mode token in a persistent profile', () => {
  test('leaves no usable token or session in History, Sessions or Top Sites once the browser closes', async () => {
    const printed = served.url;
    const token = new URL(printed).searchParams.get('token');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(printed);
    expect(page.url()).toBe(`http://127.0.0.1:${served.port}/`);
    // The app through the bridge: the demo mailbox imported, a thread open, and the same after a reload.
    await page.getByTestId('import-demo').first().click();
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/Imported\s*60(?!\d)/i);
    await page.keyboard.press('Escape');
    await page.getByTestId('thread-row').first().click();
    await page.getByTestId('message').first().waitFor();
    await page.reload();
    await page.getByTestId('thread-row').first().waitFor();
    const session = (await context.cookies()).find((c) => c.name === `skimmer-${served.port}`);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/bridge' });
    const sessionValue = session?.value ?? '';
    expect(sessionValue).toHaveLength(32);
    await context.close();

    const history = new Database(join(profile, 'Default', 'History'), {
      readonly: true,
      fileMustExist: true,
    });
    const urls = history.prepare('SELECT url FROM urls').pluck().all() as string[];
    history.close();
    // Chromium did keep the printed address: this test looks where the token would be.
    expect(urls).toContain(printed);
    const kept = historyFiles().map((f) => readFileSync(f).toString('latin1'));
    const tokens = new Set(
      [...urls, ...kept].flatMap((text) =>
        [...text.matchAll(/token=([A-Za-z0-9_-]{32})/g)].map((m) => m[1] ?? ''),
      ),
    );
    expect([...tokens]).toContain(token);
    for (const found of tokens) {
      expect(
        await openAddress(served, `http://127.0.0.1:${served.port}/bridge/open?token=${found}`),
      ).toBeNull();
    }
    expect(kept.some((text) => text.includes(sessionValue))).toBe(false);
    // Nor does the spent token open the socket by itself.
    await expect(openBridge(served, { cookie: null, path: `/bridge?token=${token}` })).rejects.toThrow('403');
  }, 120_000);

  test('`skimmer serve` prints an address that opens the app in one step, then the next one', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const done = main(['--data', tempDir(), 'serve', '--json'], io, stop.signal);
    await expect.poll(() => lines[0]).toBeDefined();
    const first = JSON.parse(lines[0] ?? '{}') as { url: string };
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(first.url);
      await page.getByTestId('import-demo').first().waitFor();
      // Once used, the command prints the address for the next browser.
      const printedNext = () => lines.slice(1).find((line) => line.includes('/bridge/open'));
      await expect.poll(printedNext).toBeDefined();
      const next = JSON.parse(printedNext() ?? '{}') as { url: string };
      expect(next.url).toMatch(/\/bridge\/open\?token=/);
      expect(next.url).not.toBe(first.url);
      // A second browser, with the next address.
      const other = await (await browser.newContext()).newPage();
      await other.goto(next.url);
      await other.getByTestId('import-demo').first().waitFor();
    } finally {
      await browser.close();
      stop.abort();
    }
    expect(await done).toBe(0);
  }, 60_000);
});
