import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

// One database file per data folder (DESIGN §3): WAL so readers never wait on the importer's writer,
// foreign keys on, and every migration applied before anyone else touches it.
export function openDatabase(file: string, options: { readonly?: boolean } = {}): Db {
  const db = new Database(file, { readonly: options.readonly ?? false });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A second connection (the import worker) may hold the write lock for one batch.
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) migrate(db);
  return db;
}
