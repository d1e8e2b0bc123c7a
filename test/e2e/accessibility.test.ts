// axe-core's serious and critical findings (issue 29 §6) on the mail view, an open conversation, checked
// rows, the composer and every settings dialog, in both themes: the built renderer in Debian's Chromium over
// the real server and bridge.
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

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  const current = await page.evaluate(() => document.documentElement.dataset.theme);
  if (current === theme) return;
  await page.getByTestId('theme-toggle').click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
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
      await setTheme(theme);
      // A selected, open row: the state whose colours the dark theme got wrong.
      await page.getByTestId('thread-row').filter({ hasText: 'Alpha plans' }).click();
      await page.locator('.thread-row.open.selected').waitFor();
      expect(await seriousFindings()).toEqual([]);
      await page.getByTestId('thread-row').filter({ hasText: 'Beta plans' }).click();
      await page.locator('.thread-subject').waitFor();
      expect(await seriousFindings()).toEqual([]);
      expect(foreign).toEqual([]);
    });

    test(`${theme} theme: no serious or critical finding with rows checked, in the composer and in Settings`, async () => {
      await setTheme(theme);
      const row = page.getByTestId('thread-row').filter({ hasText: 'Alpha plans' });
      await row.click();
      await page.keyboard.press('x');
      await page.locator('.thread-row[data-checked="true"]').first().waitFor();
      expect(await seriousFindings()).toEqual([]);
      await page.keyboard.press('x'); // unchecked again for the next test

      await page.keyboard.press('c');
      const composer = page.getByTestId('composer');
      await composer.getByTestId('composer-subject').waitFor();
      expect(await seriousFindings()).toEqual([]);
      await composer.getByTestId('composer-body').press('Escape');
      await composer.waitFor({ state: 'detached' });

      for (const opener of ['services-open', 'accounts-open', 'identities-open', 'permissions-open']) {
        await page.getByTestId(opener).click();
        const dialog = page.getByRole('dialog');
        await dialog.first().waitFor();
        expect({ opener, findings: await seriousFindings() }).toEqual({ opener, findings: [] });
        await page.keyboard.press('Escape');
        await dialog.first().waitFor({ state: 'detached' });
        // The focus goes back to the button that opened it (Modal.tsx), not to the page's <body>.
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
          .toBe(opener);
      }
      expect(foreign).toEqual([]);
    });
  }
});
