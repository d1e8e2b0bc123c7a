import type { Migration } from '../migrate.ts';

// The people of `contacts` (migration 0029) are counted once per batch of stored messages (store.ts
// `indexStored`), not by a trigger on every insert: the trigger's per-message pass over From, To and Cc,
// its upserts and its version bump were 40 % of an import's storing time (issue 18, bench/README.md).
// Deletes are rare and stay a trigger.
export const m0032: Migration = {
  version: 32,
  name: 'contacts-by-batch',
  up(db) {
    db.exec('DROP TRIGGER contacts_insert');
  },
};
