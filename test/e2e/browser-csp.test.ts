// The browser mode's Content-Security-Policy as Debian's Chromium reads it (red-team item 18a): the real server
// over real loopback sockets, the built renderer, the demo mailbox. At each address the page may be opened at —
// 127.0.0.1 (the one `skimmer serve` prints), localhost, and [::1] when the server listens there — a load logs
// nothing about the policy (an invalid source, a violation), and the page reaches the bridge over its socket: the
// thread list comes from it. The policy named `ws://[::1]:PORT`, which CSP's grammar has no place for (a host is
// letters, digits and dots), so Chromium logged on every load that it ignores it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import { serve } from '../../electron/web/server.ts';
import { importDemo } from '../support/bridge.ts';
import { launchChromium } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let browser: Browser;

beforeAll(async () => {
  await importDemo(app);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app.close();
});

describe('the browser mode in Chromium', () => {
  test.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['[::1]', '::1'],
  ])('opened at %s, loads without a word about its CSP and reaches the bridge', async (name, listen) => {
    const served = await serve(app, { host: listen });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const logged: string[] = [];
      page.on('console', (m) => logged.push(`${m.type()}: ${m.text()}`));
      // A violation is reported to the page too, as an event, whether or not it is logged.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const address = new URL(served.url);
      address.hostname = name;
      await page.goto(address.href);
      expect(new URL(page.url()).host).toBe(`${name}:${served.port}`);
      // The list is read through the bridge: the socket was allowed.
      await page.getByTestId('thread-row').first().waitFor();
      const violations = await page.evaluate(
        () => (window as unknown as { cspViolations: string[] }).cspViolations,
      );
      expect(violations).toEqual([]);
      expect(logged.filter((l) => /content security policy|content-security-policy/i.test(l))).toEqual([]);
    } finally {
      await context.close();
      await served.close();
    }
  });
});
