// Every worker the main process starts is built beside the module that starts it: a worker file missing from a
// build's inputs would start in development (from source) and fail only in the built app or the built command.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

// `workerModule(import.meta.url, 'x-worker')` (electron/worker-calls.ts): the worker and the file it is in.
const started = sources(join(root, 'electron')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/workerModule\(import\.meta\.url, '([\w-]+-worker)'\)/g)].map(
    (m) => ({
      name: m[1] as string,
      source: relative(root, join(file, '..', `${m[1]}.ts`)),
    }),
  ),
);

describe('worker entries', () => {
  test('the main process starts several workers', () => {
    expect(started.map((w) => w.name)).toEqual(
      expect.arrayContaining([
        'read-worker',
        'judge-worker',
        'sync-worker',
        'import-worker',
        'parse-worker',
        'imap-fetcher-worker',
      ]),
    );
  });

  test.each(['vite.electron.config.ts', 'vite.cli.config.ts'])('%s builds each of them', (config) => {
    const text = readFileSync(join(root, config), 'utf8');
    for (const w of started) expect(text).toContain(`'${w.name}': '${w.source}'`);
  });
});
