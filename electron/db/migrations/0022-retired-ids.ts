import type { Migration } from '../migrate.ts';

// Ids of messages, threads, drafts, folders and labels are never given twice (issue 5). SQLite gives a new row the largest id + 1,
// so the id of the newest row comes back after that row is deleted — and a sync deletes expunged mail.
// Conversations, approval cards, the undo log, triage items and cached answers name messages and threads by id,
// the undo log and the queue of server changes name folders, labels and drafts: an undo, an approved tool call
// or a queued change would then act on another one. AUTOINCREMENT would need the tables rebuilt (with their search index and every
// reference to them); instead each deletion is remembered here, and the inserts (electron/db/retired-ids.ts
// `nextId`) start after the larger of it and the largest id.
// Written out here, not imported: a migration stays as it ran, whatever is added to retired-ids.ts later.
const tables = ['messages', 'threads', 'drafts', 'folders', 'labels'];

export const m0022: Migration = {
  version: 22,
  name: 'retired-ids',
  up(db) {
    db.exec(`
      CREATE TABLE retired_ids (
        tbl TEXT PRIMARY KEY,
        max_id INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `);
    for (const t of tables) {
      db.exec(`
        INSERT INTO retired_ids (tbl, max_id) VALUES ('${t}', 0);
        CREATE TRIGGER ${t}_retire_id AFTER DELETE ON ${t} BEGIN
          UPDATE retired_ids SET max_id = max(max_id, old.id) WHERE tbl = '${t}';
        END;
      `);
    }
  },
};
