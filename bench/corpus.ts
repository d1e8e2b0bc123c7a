// Where the benchmarks keep their generated mailbox and database, and how a missing one is made. The
// generator and the import run as child processes so their memory never counts towards the figures of
// the benchmark that asked for them. `small`: the everyday corpus (generate-mailbox.ts --small).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dbFileName } from '../electron/data-folder.ts';
import { migrate } from '../electron/db/migrate.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { defaultName, expectedPath } from './generate-mailbox.ts';

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
export const outDir = fileURLToPath(new URL('./out/', import.meta.url));

export function corpusPath(count: number, small = false): string {
  return `${outDir}${defaultName(count, small)}`;
}

/** The corpus's path without `.mbox`: the stem of its database, Maildir and the comparisons' indexes. */
export function corpusBase(count: number, small = false): string {
  return corpusPath(count, small).replace(/\.mbox$/, '');
}

export function databasePath(count: number, small = false): string {
  return `${corpusBase(count, small)}.sqlite`;
}

export function ensureCorpus(count: number, small = false): { mbox: string; expected: string } {
  const mbox = corpusPath(count, small);
  if (!existsSync(mbox) || !existsSync(expectedPath(mbox))) {
    console.log(`Generating ${count} messages into ${mbox} …`);
    runChild(['generate-mailbox.ts', '--count', String(count), '--out', mbox, ...(small ? ['--small'] : [])]);
  }
  return { mbox, expected: expectedPath(mbox) };
}

export function ensureDatabase(count: number, small = false): string {
  const db = databasePath(count, small);
  if (!existsSync(db)) {
    console.log(`No database at ${db}: running bench/import.ts first …`);
    runChild(['import.ts', '--count', String(count), '--no-compare', ...(small ? ['--small'] : [])]);
  }
  return db;
}

/**
 * The corpus as a Maildir (mu and notmuch read nothing else), one file a message in `cur/`, seen. Not timed;
 * an existing Maildir with the right count is reused. Returns the directory and the message count.
 */
export async function ensureMaildir(
  count: number,
  small = false,
): Promise<{ dir: string; messages: number }> {
  const { mbox } = ensureCorpus(count, small);
  const dir = `${corpusBase(count, small)}-maildir`;
  const cur = `${dir}/cur`;
  if (existsSync(cur) && readdirSync(cur).length === count) return { dir, messages: count };
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(`${dir}/${sub}`, { recursive: true });
  let n = 0;
  for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) {
    writeFileSync(`${cur}/${String(n).padStart(6, '0')}.bench:2,S`, m.raw);
    n++;
  }
  return { dir, messages: n };
}

function runChild(args: string[]): void {
  const r = spawnSync(
    process.execPath,
    args.map((a, i) => (i === 0 ? `${benchDir}${a}` : a)),
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`bench/${args[0]} exited with ${r.status ?? r.signal}`);
}

/**
 * A scratch copy of the imported corpus's database (bench/import.ts leaves it), migrated, for a bench that changes
 * it, in a folder of its own (`dir`, for the bench to remove); `localAccount` is the account its imported folders belong to.
 */
export function scratchCorpus(count: number, name: string): { db: Db; dir: string; localAccount: number } {
  const dir = mkdtempSync(join(tmpdir(), `skimmer-bench-${name}-`));
  const file = join(dir, `${name}.sqlite`);
  copyFileSync(ensureDatabase(count), file);
  const db = openDatabase(file);
  migrate(db);
  const localAccount = db
    .prepare("SELECT id FROM accounts WHERE kind = 'local' ORDER BY id LIMIT 1")
    .pluck()
    .get() as number;
  return { db, dir, localAccount };
}

/**
 * The app's data folder for a corpus: a copy of the database bench/import.ts wrote, made once, so the bridge and
 * the command line open it exactly as the app opens its own (bench/search.ts, bench/search-hostile.ts).
 */
export function appDataDir(count: number, small = false): string {
  const dir = `${corpusBase(count, small)}-app`;
  const file = `${dir}/${dbFileName}`;
  if (!existsSync(file)) {
    const source = ensureDatabase(count, small);
    const d = openDatabase(source);
    d.pragma('wal_checkpoint(TRUNCATE)');
    d.close();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    copyFileSync(source, file);
  }
  return dir;
}
