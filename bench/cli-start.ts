// How long the command line takes to start and finish (issue 18: under 150 ms): `skimmer --help`, and
// `skimmer search` of an empty mailbox, as whole processes through bin/skimmer.mjs, beside Node's own start
// (`node -e 0`) in the same run, rounds interleaved so the machine's drift falls on all three alike. Also
// the same two from the source (its main() run directly), to show what the build in dist-cli/ saves.
//
//   node bench/cli-start.ts [--rounds 15]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliEntry } from '../bin/cli-entry.mjs';
import { benchDir } from './corpus.ts';
import { summary } from './stats.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);
const bin = join(benchDir, '..', 'bin', 'skimmer.mjs');
const data = mkdtempSync(join(tmpdir(), 'skimmer-cli-start-'));
const entry = cliEntry();
if (!entry.endsWith('/dist-cli/skimmer.js')) {
  console.log(
    'dist-cli/ is missing or older than the source: run `npm run build` first for the built figures.',
  );
}

// The source's own main(), run the way bin/skimmer.mjs runs an entry.
const fromSource = (argv: string[]) => [
  '--input-type=module',
  '-e',
  `const { main } = await import(${JSON.stringify(new URL('../electron/cli/main.ts', import.meta.url).href)}); process.exitCode = await main(${JSON.stringify(argv)});`,
];
const runs: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['skimmer --help', [bin, '--help']],
  ['skimmer search (empty mailbox)', [bin, 'search', '--data', data, 'meeting']],
  ['source: --help', fromSource(['--help'])],
  ['source: search (empty mailbox)', fromSource(['search', '--data', data, 'meeting'])],
];

const times = new Map<string, number[]>(runs.map(([name]) => [name, []]));
for (let r = -1; r < rounds; r++) {
  for (const [name, args] of runs) {
    const t = performance.now();
    const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const ms = performance.now() - t;
    if (child.status !== 0) throw new Error(`${name} exited with ${child.status}: ${child.stderr}`);
    if (r >= 0) times.get(name)?.push(ms); // round -1 warms the page cache and creates the database
  }
}
rmSync(data, { recursive: true, force: true });

console.log(`Whole processes, ${rounds} rounds each (interleaved), ${process.version}; entry ${entry}`);
const node = summary(times.get('node -e 0') ?? []).median;
const rows = runs.map(([name]) => {
  const s = summary(times.get(name) ?? []);
  console.log(
    `  ${name.padEnd(32)} p50 ${String(s.median).padStart(6)} ms, p90 ${String(s.p90).padStart(6)} ms, max ${String(s.max).padStart(6)} ms  (${Math.round((s.median / node) * 10) / 10}× node -e 0)`,
  );
  return { name, ...s };
});
console.log(JSON.stringify({ bench: 'cli-start', rounds, node: process.version, rows }));
