// Where the e2e tests put their screenshots: test-results/screenshots, never docs/ (the README's copies there
// are chosen by hand, so a test run changes no file under version control).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

/** The path for a screenshot named `name`, its folder made. */
export function screenshotPath(name: string): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
