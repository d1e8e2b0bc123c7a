// `npm test` type-checks with three configs (scripts/test.ts): Node, renderer, end to end. A file none of them
// includes is never type-checked, and its errors surface only when vitest happens to run it (vitest strips
// types without checking them), as the renderer's own tests once were.
import { execFile } from 'node:child_process';
import { globSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { projectRoot } from '../electron/app.ts';

const run = promisify(execFile);
const configs = ['tsconfig.node.json', 'tsconfig.renderer.json', 'tsconfig.e2e.json'];
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
// What .gitignore keeps out of the project: dependencies, builds, outputs.
const outside = ['node_modules', 'dist', 'dist-electron', 'test-results', '.data', 'bench/out', '.git'];

async function listed(config: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [tsc, '-p', config, '--listFilesOnly'], {
    cwd: projectRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((file) => relative(projectRoot, file));
}

test('every TypeScript file of the project is type-checked by one of the configs npm test runs', async () => {
  const checked = new Set((await Promise.all(configs.map(listed))).flat());
  const files = globSync('**/*.{ts,tsx,mts,cts}', {
    cwd: projectRoot,
    exclude: (name) => outside.some((dir) => name === dir || name.startsWith(`${dir}/`)),
  });
  expect(files.length).toBeGreaterThan(100);
  expect(files.filter((file) => !checked.has(file))).toEqual([]);
}, 60_000);
