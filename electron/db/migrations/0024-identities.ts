import type { Migration } from '../migrate.ts';

// Your addresses (DESIGN §11, "Reply, reply all, forward"): the ones you add for imported mail, and the name and
// signature of any of them, an account's own address included (that one is listed from its account, so it needs
// no row to be yours). An address is stored lower-cased, the form addresses are compared in, so it is there once.
export const m0024: Migration = {
  version: 24,
  name: 'identities',
  up(db) {
    db.exec(`
      CREATE TABLE identities (
        id INTEGER PRIMARY KEY,
        address TEXT NOT NULL UNIQUE CHECK (address <> '' AND address = lower(trim(address))),
        name TEXT,
        signature TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
