// axe-core's serious and critical findings (issue 29 §6) on the mail view and an open conversation, in both
// themes: the built renderer in Debian's Chromium over the real server and bridge.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { eml, tempDir } from '../support/temp.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];

type Finding = { id: string; impact: string | null; nodes: string[] };

async function seriousFindings(): Promise<Finding[]> {
  // Evaluated over the debugging protocol: the app's CSP (script-src 'self') rightly refuses an inline script.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
          ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

beforeAll(async () => {
  const mail = tempDir();
  writeFileSync(
    join(mail, 'a.eml'),
    eml({ id: '<a@x>', subject: 'Alpha plans', date: 'Sun, 29 Nov 2026 10:00:00 +0000' }),
  );
  writeFileSync(
    join(mail, 'b.eml'),
    eml({ id: '<b@x>', subject: 'Beta plans', date: 'Sat, 28 Nov 2026 10:00:00 +0000' }),
  );
  await app.importFiles([mail], () => {}).done;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('axe-core', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme} theme: no serious or critical finding on the mail view and an open conversation`, async () => {
      const current = await page.evaluate(() => document.documentElement.dataset.theme);
      if (current !== theme) {
        await page.getByTestId('theme-toggle').click();
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      }
      // A selected, open row: the state whose colours the dark theme got wrong.
      await page.getByTestId('thread-row').filter({ hasText: 'Alpha plans' }).click();
      await page.locator('.thread-row.open.selected').waitFor();
      expect(await seriousFindings()).toEqual([]);
      await page.getByTestId('thread-row').filter({ hasText: 'Beta plans' }).click();
      await page.locator('.thread-subject').waitFor();
      expect(await seriousFindings()).toEqual([]);
      expect(foreign).toEqual([]);
    });
  }
});
