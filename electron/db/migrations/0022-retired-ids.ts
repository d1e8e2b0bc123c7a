import type { Migration } from '../migrate.ts';

// Ids of messages, threads, drafts, folders and labels are never given twice (issue 5). SQLite gives a new row the largest id + 1,
// so the id of the newest row comes back after that row is deleted — and a sync deletes expunged mail.
// Conversations, approval cards, the undo log, triage items and cached answers name messages and threads by id,
// the undo log and the queue of server changes name folders, labels and drafts: an undo, an approved tool call
// or a queued change would then act on another one. AUTOINCREMENT would need the tables rebuilt (with their search index and every
// reference to them); instead each deletion is remembered here, and the inserts (electron/db/retired-ids.ts
// `nextId`) start after the larger of it and the largest id.
export const m0022: Migration = {
  version: 22,
  name: 'retired-ids',
  up(db) {
    db.exec(`
      CREATE TABLE retired_ids (
        tbl TEXT PRIMARY KEY,
        max_id INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      INSERT INTO retired_ids (tbl, max_id) VALUES ('messages', 0), ('threads', 0), ('drafts', 0), ('folders', 0), ('labels', 0);
      CREATE TRIGGER messages_retire_id AFTER DELETE ON messages BEGIN
        UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = 'messages';
      END;
      CREATE TRIGGER threads_retire_id AFTER DELETE ON threads BEGIN
        UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = 'threads';
      END;
      CREATE TRIGGER drafts_retire_id AFTER DELETE ON drafts BEGIN
        UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = 'drafts';
      END;
      CREATE TRIGGER folders_retire_id AFTER DELETE ON folders BEGIN
        UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = 'folders';
      END;
      CREATE TRIGGER labels_retire_id AFTER DELETE ON labels BEGIN
        UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = 'labels';
      END;
    `);
  },
};
