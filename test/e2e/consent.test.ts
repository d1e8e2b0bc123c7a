// Consent before mail leaves this computer (DESIGN §5), end to end: the real server and bridge, the built
// renderer in Debian's Chromium. "cloud" points at a host that must never be contacted; "local" is on loopback.
// What it proves: a remote service starts with no consent, allowing it names the exact endpoint first, the
// stored answer is what the bridge reports, taking it back or editing the address ends it, and none of this
// contacts any service.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const cloudEndpoint = 'https://api.example.com/v1/chat/completions';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
// Requests the page made off its own origin (aborted), and requests this process made off loopback (refused).
const foreign: string[] = [];
const leftLoopback: string[] = [];
const realFetch = globalThis.fetch;

function onLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

beforeAll(async () => {
  // SECURITY: the main side's model requests go through the global fetch; anything off loopback is recorded
  // and refused here, so the test never reaches api.example.com even if consent were to contact it.
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!onLoopback(url)) {
      leftLoopback.push(url);
      throw new TypeError('refused by the test: not loopback');
    }
    return realFetch(input, init);
  }) as typeof fetch;
  await call(app, 'service:add', { name: 'cloud', kind: 'openai', baseUrl: 'https://api.example.com/v1' });
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' });
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 900 } }));
}, 60_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await browser?.close();
  await served?.close();
  await app.close();
});

const row = (name: string): Locator =>
  page.locator(`[data-testid="service-row"][data-service-name="${name}"]`);

async function mailAllowed(name: string): Promise<boolean | undefined> {
  const services = await call(app, 'service:list', {});
  return services.find((s) => s.name === name)?.mailAllowed;
}

describe('Consent to send mail to a model service', () => {
  test('a remote service starts without consent and says mail never goes there', async () => {
    await page.getByTestId('services-open').click();
    await row('cloud').waitFor();
    expect(await row('cloud').getByTestId('service-consent').textContent()).toContain(
      'Mail and documents never go to this service',
    );
    expect(await row('cloud').getByTestId('service-consent-ask').textContent()).toBe(
      `Allow sending mail to ${cloudEndpoint}…`,
    );
    expect(await mailAllowed('cloud')).toBe(false);
  });

  test('Cancel in the confirmation leaves the service without consent', async () => {
    await row('cloud').getByTestId('service-consent-ask').click();
    await row('cloud').getByTestId('service-consent-confirm').waitFor();
    await row('cloud').getByTestId('service-consent-cancel').click();
    await row('cloud').getByTestId('service-consent-confirm').waitFor({ state: 'detached' });
    expect(await mailAllowed('cloud')).toBe(false);
  });

  test('allowing names what goes to which endpoint first, then stores the consent', async () => {
    await row('cloud').getByTestId('service-consent-ask').click();
    const confirm = row('cloud').getByTestId('service-consent-confirm');
    await confirm.waitFor();
    const text = await confirm.textContent();
    expect(text).toContain(
      'Messages you ask about, quoted mail, and mail the assistant reads with its tools',
    );
    expect(text).toContain(`${cloudEndpoint} (cloud)`);
    expect(text).toContain('You can take this back at any time.');
    await page.screenshot({ path: join(shots, 'consent-confirm.png') });
    // Nothing is stored until the user answers.
    expect(await mailAllowed('cloud')).toBe(false);

    await row('cloud').getByTestId('service-consent-allow').click();
    await expect.poll(() => mailAllowed('cloud')).toBe(true);
    await expect
      .poll(() => row('cloud').getByTestId('service-consent').textContent())
      .toContain(`Mail may go to ${cloudEndpoint}`);
  });

  test('Stop sending mail takes the consent back', async () => {
    await row('cloud').getByTestId('service-consent-revoke').click();
    await expect.poll(() => mailAllowed('cloud')).toBe(false);
    await expect
      .poll(() => row('cloud').getByTestId('service-consent').textContent())
      .toContain('Mail and documents never go to this service');
  });

  test('editing the address voids the consent, and the row says so', async () => {
    await row('cloud').getByTestId('service-consent-ask').click();
    await row('cloud').getByTestId('service-consent-allow').click();
    await expect.poll(() => mailAllowed('cloud')).toBe(true);
    await row('cloud').getByTestId('service-edit').click();
    await row('cloud').getByTestId('service-edit-url').fill('https://api2.example.com/v1');
    await row('cloud').getByTestId('service-edit-save').click();
    await row('cloud').getByTestId('service-edit-form').waitFor({ state: 'detached' });
    await expect.poll(() => mailAllowed('cloud')).toBe(false);
    await expect
      .poll(() => row('cloud').getByTestId('service-consent-ask').textContent())
      .toBe('Allow sending mail to https://api2.example.com/v1/chat/completions…');
  });

  test('a service on this computer needs no consent', async () => {
    expect(await row('local').getByTestId('service-consent').textContent()).toBe(
      'On this computer: mail never leaves it',
    );
    expect(await row('local').getByTestId('service-consent-ask').count()).toBe(0);
    expect(await row('local').getByTestId('service-consent-revoke').count()).toBe(0);
  });

  test('neither allowing nor taking back contacted any service', () => {
    expect(leftLoopback).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
