// The main search box, as a person uses it, waiting for the results of exactly this search: until they come,
// the list still shows the previous search's hits, and a click there would open the wrong thread.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function searchMail(page: Page, query: string): Promise<void> {
  const box = page.getByTestId('search-input');
  await box.fill(query);
  await box.press('Enter');
  // Enter marks the search as running ("Searching…") in the key's own handler, rendered before the key press
  // returns (React renders a discrete event's update at once); the status counts results again only when this
  // search's hits are the ones shown.
  await expect.poll(() => page.locator('.list-status').textContent()).toMatch(/^\d+ results?/);
}
