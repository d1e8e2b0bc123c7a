import type { Migration } from '../migrate.ts';

// Undo out of order and Not spam for imported mail (DESIGN §11).
// `undo_log.dropped`: an undo applies only while its messages are still where its action left them; one that no
// longer can is taken off the list (`undone_at` set, so the open-entries index still leaves it out) with the
// sentence that said why, which a later request for it gets again instead of "already undone".
// `spam_origins`: the folder an imported message was in when it was marked spam, so Not spam puts it back there
// rather than in an Inbox Skimmer makes (an IMAP account's message goes back to its INBOX, as on the server).
// A row lives while the message stays where Spam put it: any other move of it removes the row (undo.ts), and
// it goes with the message or either folder (ON DELETE CASCADE).
export const m0035: Migration = {
  version: 35,
  name: 'undo-checks-spam-origins',
  up(db) {
    db.exec(`
      ALTER TABLE undo_log ADD COLUMN dropped TEXT;

      CREATE TABLE spam_origins (
        message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX spam_origins_by_folder ON spam_origins (folder_id);
    `);
  },
};
