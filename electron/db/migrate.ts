import { migrations } from './migrations/index.ts';
import type { Db } from './open.ts';

export type Migration = { readonly version: number; readonly name: string; readonly up: (db: Db) => void };

/** The schema version this Skimmer writes: the highest migration's. */
export const latestVersion = migrations.reduce((max, m) => Math.max(max, m.version), 0);

// PRAGMA user_version is the schema version; each migration runs in its own transaction and bumps it,
// so a crash leaves the database at the last complete version. Migrations apply by their version (not their
// place in the list), in increasing order, so parts built side by side can each take a number of their own.
export function migrate(db: Db, target = latestVersion): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latestVersion) {
    throw new Error(`This database is version ${current}, newer than this Skimmer (${latestVersion}).`);
  }
  const due = migrations.filter((m) => m.version > current && m.version <= target);
  for (const m of due.sort((a, b) => a.version - b.version)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
