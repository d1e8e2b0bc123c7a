// Save on an attachment chip (issue 29 §1), in browser mode: the real server and bridge, the built renderer in
// Debian's Chromium, a copy of the demo mailbox imported by the real import. The download is the original
// part, byte for byte (sha256 against mailparser's reading of the demo file), under its own name.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
const mail = join(tempDir(), 'demo');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  cpSync(join(import.meta.dirname, '../../fixtures/demo'), mail, { recursive: true });
  await app.importFiles([mail], () => {}).done;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('Save on an attachment chip', () => {
  test("downloads the demo invoice's PDF, identical to the original part", async () => {
    await page.getByTestId('search-input').fill('has:attachment subject:"Invoice 1042"');
    await page.getByTestId('search-input').press('Enter');
    await page.getByTestId('search-hit').filter({ hasText: 'Invoice 1042' }).first().click();
    const save = page.getByRole('button', { name: 'Save invoice-1042.pdf' });
    await save.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
    expect(download.suggestedFilename()).toBe('invoice-1042.pdf');
    const path = await download.path();
    const original = await simpleParser(readFileSync(join(mail, '09-invoice-1042.eml')));
    expect(sha(readFileSync(path))).toBe(sha(original.attachments[0]?.content as Buffer));
    expect(foreign).toEqual([]);
  });
});
