// `npm start` skips the renderer's build and `skimmer` runs its bundle only while the build is current
// (bin/build-current.mjs): decided by the files' dates, on a real folder.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildIsCurrent } from '../bin/build-current.mjs';
import { tempDir } from './support/temp.ts';

function project() {
  const root = tempDir();
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  const at = (path: string, seconds: number) => {
    writeFileSync(join(root, path), 'x');
    utimesSync(join(root, path), seconds, seconds);
  };
  return { root, at };
}

describe('a build is current', () => {
  test('when nothing it is built from is newer than its output', () => {
    const { root, at } = project();
    at('src/a.ts', 1000);
    at('src/deep/b.tsx', 1000);
    at('config.ts', 1000);
    at('dist/index.html', 2000);
    expect(
      buildIsCurrent(root, 'dist/index.html', {
        dirs: ['src'],
        files: ['config.ts'],
        endings: ['.ts', '.tsx'],
      }),
    ).toBe(true);
  });

  test('not when a source deep in a folder, or a named file, changed after it', () => {
    const { root, at } = project();
    at('src/a.ts', 1000);
    at('config.ts', 1000);
    at('dist/index.html', 2000);
    at('src/deep/b.tsx', 3000);
    const inputs = { dirs: ['src'], files: ['config.ts'], endings: ['.ts', '.tsx'] };
    expect(buildIsCurrent(root, 'dist/index.html', inputs)).toBe(false);
    utimesSync(join(root, 'src/deep/b.tsx'), 1000, 1000);
    expect(buildIsCurrent(root, 'dist/index.html', inputs)).toBe(true);
    utimesSync(join(root, 'config.ts'), 3000, 3000);
    expect(buildIsCurrent(root, 'dist/index.html', inputs)).toBe(false);
  });

  test('not when it was never built, and files of other kinds do not count', () => {
    const { root, at } = project();
    at('src/a.ts', 1000);
    expect(buildIsCurrent(root, 'dist/index.html', { dirs: ['src'] })).toBe(false);
    at('dist/index.html', 2000);
    at('src/notes.md', 3000);
    expect(buildIsCurrent(root, 'dist/index.html', { dirs: ['src'] })).toBe(true);
  });

  test('not when a named file is gone (moved or deleted since the build)', () => {
    const { root, at } = project();
    at('config.ts', 1000);
    at('dist/index.html', 2000);
    expect(buildIsCurrent(root, 'dist/index.html', { files: ['config.ts'] })).toBe(true);
    expect(buildIsCurrent(root, 'dist/index.html', { files: ['config.ts', 'gone.ts'] })).toBe(false);
  });
});
