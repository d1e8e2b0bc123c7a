import type { Migration } from '../migrate.ts';

// Ciphertext only (DESIGN §4): the backend that sealed each secret is stored with it, so a secret sealed
// by the OS keyring is never confused with one sealed by the file vault.
export const m0002: Migration = {
  version: 2,
  name: 'secrets',
  up(db) {
    db.exec(`
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        backend TEXT NOT NULL CHECK (backend IN ('safe-storage', 'file')),
        protection TEXT NOT NULL,
        ciphertext BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
