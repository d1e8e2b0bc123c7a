// Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags that keep
// it from talking to the network on its own (feasibility.md §D).
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { App } from '../../electron/app.ts';
import { type Served, serve } from '../../electron/web/server.ts';

export const chromiumPath = '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

// Opens the real app (browser mode) in Chromium, at the address `skimmer serve` prints: the browser trades
// its one-time token for the session cookie and lands on the app. Every request that is not the app's own origin is
// recorded in `foreign` and aborted, so a leak fails the test and never reaches the network.
export async function openApp(
  app: App,
  options: {
    foreign: string[];
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
  },
): Promise<{ served: Served; browser: Browser; context: BrowserContext; page: Page }> {
  const served = await serve(app);
  const browser = await launchChromium();
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
  });
  const own = new URL(served.url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(own) || url.startsWith('data:') || url.startsWith('blob:') || url === 'about:srcdoc') {
      return route.continue();
    }
    options.foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(served.url);
  return { served, browser, context, page };
}

// Every place a secret could surface in the page: its visible text, its markup and every field's value.
export function pageShows(page: Page, secret: string): Promise<boolean> {
  return page.evaluate((s) => {
    const values = [...document.querySelectorAll('input, textarea, select')].map(
      (el) => (el as HTMLInputElement).value,
    );
    return (
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person would see.
      document.body.innerText.includes(s) ||
      document.documentElement.outerHTML.includes(s) ||
      values.some((v) => v.includes(s))
    );
  }, secret);
}
