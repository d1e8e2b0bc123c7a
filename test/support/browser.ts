// Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags that keep
// it from talking to the network on its own (feasibility.md §D).
import { type Browser, chromium } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
