import type { Migration } from '../migrate.ts';

// Labels on messages, local drafts, and the undo log of the mail tools (DESIGN §7). An undo entry holds
// the inverse of one write as JSON (see electron/mail/store/undo.ts); `undone_at` is set once it is applied.
export const m0008: Migration = {
  version: 8,
  name: 'labels-drafts-undo',
  up(db) {
    db.exec(`
      CREATE TABLE labels (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE
      ) STRICT;
      CREATE TABLE message_labels (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
        PRIMARY KEY (message_id, label_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX message_labels_by_label ON message_labels (label_id, message_id);

      CREATE TABLE drafts (
        id INTEGER PRIMARY KEY,
        to_json TEXT NOT NULL DEFAULT '[]',
        cc_json TEXT NOT NULL DEFAULT '[]',
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        in_reply_to INTEGER REFERENCES messages(id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE undo_log (
        id INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL,
        description TEXT NOT NULL,
        inverse_json TEXT NOT NULL,
        undone_at INTEGER
      ) STRICT;
      CREATE INDEX undo_log_open ON undo_log (id) WHERE undone_at IS NULL;
    `);
  },
};
