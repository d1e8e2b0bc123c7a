import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

const walLimitBytes = 64 * 1024 * 1024;

// One database file per data folder (DESIGN §3): WAL so readers never wait on the importer's writer,
// foreign keys on, and every migration applied before anyone else touches it.
export function openDatabase(
  file: string,
  options: {
    readonly?: boolean;
    /** For a worker that commits large batches (an import, a first sync): see the checkpoint below. */
    batches?: boolean;
  } = {},
): Db {
  if (!options.readonly) createPrivately(file);
  const db = new Database(file, { readonly: options.readonly ?? false });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A commit that finds the WAL over the limit copies it into the database and waits for two fsyncs. At the
  // default 1,000 pages (4 MB) a first sync of 20,000 messages did that after nearly every 1,000-message batch;
  // at 64 MB the stores took 0.7–1.0 s less time and 0.5–0.7 s less CPU (bench/README.md). The WAL file is
  // then cut back to that size. Such a connection copies it itself, after a batch rather than inside its
  // commit (`checkpointWhenLarge`, called by write-turn.ts `storeGivingWay`): inside, the main thread waiting
  // for the batch would wait for the copy too (up to 470 ms, bench/main-stall.ts (d)).
  if (options.batches) {
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${walLimitBytes}`);
  }
  db.pragma('foreign_keys = ON');
  // A second connection (the import worker, a sync worker) may hold the write lock for one batch.
  db.pragma('busy_timeout = 5000');
  // Several connections write to this file at once (the main process, the import worker, one sync worker per
  // account). A deferred transaction that reads and then writes fails at once with SQLITE_BUSY when another
  // connection committed in between: the busy timeout does not cover that upgrade (SQLite, "BEGIN
  // TRANSACTION": "SQLITE_BUSY_SNAPSHOT"). So every transaction here takes the write lock when it begins.
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<Db['transaction']>[0]) => deferred(fn).immediate) as Db['transaction'];
  if (!options.readonly) migrate(db);
  return db;
}

/**
 * For a connection opened with `batches`, after a batch: copies the WAL into the database once it has grown past
 * 64 MB, as SQLite's own autocheckpoint would inside a commit (a passive checkpoint: it waits for no reader or
 * writer, and another connection may write meanwhile).
 */
export function checkpointWhenLarge(db: Db): void {
  let size: number;
  try {
    size = statSync(`${db.name}-wal`).size;
  } catch {
    return;
  }
  if (size >= walLimitBytes) db.pragma('wal_checkpoint(PASSIVE)');
}

// SECURITY: the database holds the user's mail, and SQLite creates it 0644 (less the umask), whatever the
// folder: an existing data folder keeps its own mode (a 0755 one was seen). So the file is created 0600
// before SQLite opens it (an empty file is an empty database), and an older one is tightened. SQLite gives
// the -wal and -shm files the database file's mode (os_unix.c, findCreateFileMode), so they follow; those
// left by an older version are tightened too.
function createPrivately(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    }
  }
}
