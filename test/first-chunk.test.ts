// The renderer's first screen loads without zod (DESIGN §1: the bounds it needs as numbers live in
// shared/contract/limits.ts, apart from the schemas). `npm test` builds the renderer before the suites run; this
// reads what that build put in the page's first chunk, so a value imported from a schema file is caught.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const dist = join(import.meta.dirname, '..', 'dist', 'renderer');

test('the page’s first chunk holds no zod', () => {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="(?:\.?\/)?(assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeDefined();
  const code = readFileSync(join(dist, entry ?? ''), 'utf8');
  expect(code.length).toBeGreaterThan(10_000);
  // zod's own messages and class names, which survive minification.
  expect(code).not.toMatch(/ZodError|Invalid input: expected/);
  // And a lazily loaded chunk does hold it, so the check would see zod where it is.
  const chunks = readdirSync(join(dist, 'assets')).filter(
    (f) => f.endsWith('.js') && `assets/${f}` !== entry,
  );
  expect(chunks.some((f) => /ZodError/.test(readFileSync(join(dist, 'assets', f), 'utf8')))).toBe(true);
});
