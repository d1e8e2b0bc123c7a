// The built command line (vite.cli.config.ts, dist-cli/) says what the source says, and bin/skimmer.mjs
// runs the build only while no source file is newer than it (bin/cli-entry.mjs).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliEntry, sourcesListName } from '../bin/cli-entry.mjs';
import { projectRoot } from '../electron/app.ts';
import { tempDir } from './support/temp.ts';

const run = promisify(execFile);

// Runs `main(argv)` of a module in a Node process of its own, as bin/skimmer.mjs does.
async function mainOf(entry: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const script = `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(${JSON.stringify(argv)});`;
  try {
    const r = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

describe('the built command line', () => {
  // One level below the checkout, as dist-cli/ is: the build finds node_modules and the project's files so.
  const out = join(projectRoot, `dist-cli-test-${process.pid}`);
  const data = tempDir();
  let built: string;
  const source = pathToFileURL(join(projectRoot, 'electron', 'cli', 'main.ts')).href;

  beforeAll(async () => {
    await run(
      join(projectRoot, 'node_modules', '.bin', 'vite'),
      ['build', '--config', 'vite.cli.config.ts', '--outDir', out, '--logLevel', 'warn'],
      { cwd: projectRoot },
    );
    built = pathToFileURL(join(out, 'skimmer.js')).href;
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test.each([
    [['--help']],
    [['search', '--help']],
    [['search', '--nope']],
    [['search', '--data', data, 'meeting']],
  ])('prints what the source prints for %j', async (argv) => {
    const fromSource = await mainOf(source, argv);
    const fromBuild = await mainOf(built, argv);
    expect(fromBuild).toEqual(fromSource);
    expect(fromSource.out + fromSource.err).not.toBe('');
  });

  test('the real build lists the command line and its workers, no test and no package', () => {
    const list = JSON.parse(readFileSync(join(out, sourcesListName), 'utf8')) as string[];
    expect(list).toContain('electron/cli/main.ts');
    expect(list).toContain('electron/search-reader.ts');
    expect(list).toContain('electron/mail/import/parse-worker.ts');
    expect(list.filter((f) => f.includes('node_modules') || f.endsWith('.test.ts'))).toEqual([]);
  });
});

describe('which command line bin/skimmer.mjs runs', () => {
  // A checkout whose build lists the two files it was made from, and a test file it was not made from.
  const checkout = () => {
    const root = tempDir();
    for (const dir of ['electron/cli', 'shared', 'dist-cli']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'electron', 'cli', 'main.ts'), '');
    writeFileSync(join(root, 'electron', 'cli', 'main.test.ts'), '');
    writeFileSync(join(root, 'shared', 'contract.ts'), '');
    writeFileSync(join(root, 'dist-cli', 'skimmer.js'), '');
    writeFileSync(
      join(root, 'dist-cli', sourcesListName),
      JSON.stringify(['electron/cli/main.ts', 'shared/contract.ts']),
    );
    const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);
    at('electron/cli/main.ts', 1000);
    at('electron/cli/main.test.ts', 1000);
    at('shared/contract.ts', 1000);
    at('dist-cli/skimmer.js', 2000);
    return { root, at };
  };
  const build = (root: string) => pathToFileURL(join(root, 'dist-cli', 'skimmer.js')).href;
  const source = (root: string) => pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href;

  test('the build, when no file it was built from is newer than it', () => {
    const { root, at } = checkout();
    expect(cliEntry(root)).toBe(build(root));
    // A file the build was not made from may change: a test, here.
    at('electron/cli/main.test.ts', 3000);
    expect(cliEntry(root)).toBe(build(root));
  });

  test('the source, when a file it was built from was changed after the build', () => {
    const { root, at } = checkout();
    at('shared/contract.ts', 3000);
    expect(cliEntry(root)).toBe(source(root));
  });

  test('the source, when a file it was built from is gone', () => {
    const { root } = checkout();
    rmSync(join(root, 'shared', 'contract.ts'));
    expect(cliEntry(root)).toBe(source(root));
  });

  test('the source, when the build has no list of its files', () => {
    const { root } = checkout();
    rmSync(join(root, 'dist-cli', sourcesListName));
    expect(cliEntry(root)).toBe(source(root));
  });

  test('the source, when there is no build', () => {
    const root = tempDir();
    mkdirSync(join(root, 'electron', 'cli'), { recursive: true });
    expect(cliEntry(root)).toBe(source(root));
  });
});

// Only the command's modules load (issue 18: a search of an empty mailbox in under 150 ms): `skimmer search` runs
// on search-reader.ts, never on the whole app nor every channel's schemas. Run from the source, each module seen
// as Node loads it (module.registerHooks).
describe('what a command loads', () => {
  async function loaded(argv: string[]): Promise<string[]> {
    const script = `
      import { registerHooks } from 'node:module';
      const seen = [];
      registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
      const { main } = await import(${JSON.stringify(pathToFileURL(join(projectRoot, 'electron', 'cli', 'main.ts')).href)});
      const code = await main(${JSON.stringify(argv)});
      process.stderr.write(JSON.stringify(seen));
      process.exitCode = code;`;
    const r = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot });
    expect(r.stdout).not.toBe('');
    const root = pathToFileURL(projectRoot).href;
    return (JSON.parse(r.stderr) as string[])
      .filter((u) => u.startsWith(root) && !u.includes('/node_modules/'))
      .map((u) => u.slice(root.length).replace(/^\//, ''));
  }

  test('a search: the searches and their two channels, not the app', async () => {
    const files = await loaded(['search', '--data', tempDir(), 'meeting']);
    expect(files).toContain('electron/search-reader.ts');
    expect(files).toContain('electron/mail/store/search.ts');
    expect(files).not.toContain('electron/app.ts');
    expect(files).not.toContain('shared/contract/index.ts');
    expect(files.filter((f) => f.startsWith('electron/bridge/handlers/'))).toEqual([
      'electron/bridge/handlers/search.ts',
    ]);
  });

  test('another command builds the app, every channel with it', async () => {
    const files = await loaded(['service', 'list', '--data', tempDir()]);
    expect(files).toContain('electron/app.ts');
    expect(files).toContain('shared/contract/index.ts');
    expect(files).not.toContain('electron/search-reader.ts');
  });
});
