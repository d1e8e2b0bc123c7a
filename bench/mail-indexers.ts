// mu and notmuch, the two Xapian mail indexers the search benchmark runs beside Skimmer on the same Maildir
// (corpus.ts). Each index is built once per corpus and reused; each search is a whole process, as a user
// or a script runs it, with its output read and thrown away. Neither tool is installed by the bench: a
// missing one is reported and skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { corpusBase, ensureMaildir } from './corpus.ts';

export type Indexer = {
  name: string;
  version: string;
  /** Runs one search for at most `limit` results, newest first; returns the number of lines printed. */
  search(query: string, limit: number): number;
};

function version(cmd: string, args: string[], pattern: RegExp): string | null {
  const probe = spawnSync(cmd, args, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  return pattern.exec(probe.stdout)?.[1] ?? 'unknown';
}

function run(cmd: string, args: string[], env?: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  // mu find exits with 4 when nothing matches (mu 1.8); that is an answer, not a failure.
  if (r.status !== 0 && !(cmd === 'mu' && r.status === 4)) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-300)}`);
  }
  return r.stdout;
}

const lines = (out: string) => (out === '' ? 0 : out.trimEnd().split('\n').length);

/** mu 1.8: `mu find`, messages sorted by date, newest first. */
export async function prepareMu(count: number, small: boolean): Promise<Indexer | null> {
  const v = version('mu', ['--version'], /version ([\d.]+)/);
  if (v === null) return null;
  const { dir } = await ensureMaildir(count, small);
  const home = `${corpusBase(count, small)}-muhome`;
  if (!existsSync(`${home}/xapian`)) {
    rmSync(home, { recursive: true, force: true });
    console.log(`Indexing ${dir} with mu …`);
    run('mu', ['init', `--maildir=${dir}`, `--muhome=${home}`]);
    run('mu', ['index', `--muhome=${home}`]);
  }
  return {
    name: 'mu find',
    version: v,
    search: (query, limit) =>
      lines(
        run('mu', [
          'find',
          `--muhome=${home}`,
          `--maxnum=${limit}`,
          '--sortfield=date',
          '--reverse',
          '--fields=d f s',
          query,
        ]),
      ),
  };
}

/** notmuch: `notmuch search`, one line per thread, newest first (its default). */
export async function prepareNotmuch(count: number, small: boolean): Promise<Indexer | null> {
  const v = version('notmuch', ['--version'], /notmuch ([\d.]+)/);
  if (v === null) return null;
  const { dir } = await ensureMaildir(count, small);
  const base = `${corpusBase(count, small)}-notmuch`;
  const config = `${base}.config`;
  // The index beside the Maildir, not inside it; no tags excluded from searches, flags not synchronized.
  writeFileSync(
    config,
    [
      '[database]',
      `path=${base}`,
      `mail_root=${dir}`,
      '[new]',
      'tags=inbox;unread',
      '[search]',
      'exclude_tags=',
      '[maildir]',
      'synchronize_flags=false',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, NOTMUCH_CONFIG: config };
  if (!existsSync(`${base}/xapian`) && !existsSync(`${base}/.notmuch`)) {
    console.log(`Indexing ${dir} with notmuch …`);
    mkdirSync(base, { recursive: true });
    run('notmuch', ['new', '--quiet'], env);
  }
  return {
    name: 'notmuch search',
    version: v,
    search: (query, limit) => lines(run('notmuch', ['search', `--limit=${limit}`, query], env)),
  };
}
