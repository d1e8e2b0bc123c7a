import { migrations } from './migrations/index.ts';
import type { Db } from './open.ts';

export type Migration = { readonly version: number; readonly name: string; readonly up: (db: Db) => void };

// PRAGMA user_version is the schema version; each migration runs in its own transaction and bumps it,
// so a crash leaves the database at the last complete version.
export function migrate(db: Db, target = migrations.length): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`This database is version ${current}, newer than this Skimmer (${migrations.length}).`);
  }
  for (const m of migrations.slice(current, target)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
