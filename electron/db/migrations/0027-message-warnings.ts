import type { Migration } from '../migrate.ts';

// The warnings of each message (DESIGN §11, "Warnings"): one row per message once it has been checked, its
// warnings as JSON (`[]` when clean), so a message without a row is one still to check. Written by
// mail/warnings/warning-store.ts when a message is stored, and for mail stored before this version by the
// backfill the app runs after it opens (its headers were not kept: those checks need a new import or sync).
export const m0027: Migration = {
  version: 27,
  name: 'message-warnings',
  up(db) {
    db.exec(`
      CREATE TABLE message_warnings (
        message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        warnings_json TEXT NOT NULL
      ) STRICT;
    `);
  },
};
