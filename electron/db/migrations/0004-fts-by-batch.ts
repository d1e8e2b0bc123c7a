import type { Migration } from '../migrate.ts';

// The store indexes each written batch with one INSERT … SELECT (electron/mail/store/store.ts) instead of a
// trigger per row: a third less time in SQLite during an import (bench/README.md). Deletes keep their
// trigger.
export const m0004: Migration = {
  version: 4,
  name: 'fts-by-batch',
  up(db) {
    db.exec('DROP TRIGGER messages_fts_insert');
  },
};
