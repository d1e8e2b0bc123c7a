// Where the benchmarks keep their generated mailbox and database, and how a missing one is made. The
// generator and the import run as child processes so their memory never counts towards the figures of
// the benchmark that asked for them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultName, expectedPath } from './generate-mailbox.ts';

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
export const outDir = fileURLToPath(new URL('./out/', import.meta.url));

export function corpusPath(count: number): string {
  return `${outDir}${defaultName(count)}`;
}

export function databasePath(count: number): string {
  return `${outDir}${defaultName(count).replace(/\.mbox$/, '')}.sqlite`;
}

export function ensureCorpus(count: number): { mbox: string; expected: string } {
  const mbox = corpusPath(count);
  if (!existsSync(mbox) || !existsSync(expectedPath(mbox))) {
    console.log(`Generating ${count} messages into ${mbox} …`);
    runChild(['generate-mailbox.ts', '--count', String(count), '--out', mbox]);
  }
  return { mbox, expected: expectedPath(mbox) };
}

export function ensureDatabase(count: number): string {
  const db = databasePath(count);
  if (!existsSync(db)) {
    console.log(`No database at ${db}: running bench/import.ts first …`);
    runChild(['import.ts', '--count', String(count), '--no-compare']);
  }
  return db;
}

function runChild(args: string[]): void {
  const r = spawnSync(
    process.execPath,
    args.map((a, i) => (i === 0 ? `${benchDir}${a}` : a)),
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`bench/${args[0]} exited with ${r.status ?? r.signal}`);
}
