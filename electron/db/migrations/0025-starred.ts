import type { Migration } from '../migrate.ts';

// Stars (DESIGN §11, "Stars"): `messages.starred` is the one place a star is read from, like `unread`. A sync
// keeps it equal to the server's \Flagged (imap-store.ts), a star made here is queued as a `flagged` op for
// the server (write-back.ts), and an imported Maildir's F flag sets it. Messages already synced take it from
// the flags stored with their locations. mail_ops is rebuilt because its kind CHECK names every kind.
export const m0025: Migration = {
  version: 25,
  name: 'starred',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN starred INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1));
      UPDATE messages SET starred = 1 WHERE EXISTS (
        SELECT 1 FROM imap_locations l, json_each(l.flags_json) f
         WHERE l.message = messages.id AND f.value = '\\Flagged');

      CREATE TABLE mail_ops_new (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        message INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (
          kind IN ('seen', 'flagged', 'move', 'keywords', 'append_draft', 'drop_draft', 'append_sent')),
        payload_json TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;
      INSERT INTO mail_ops_new SELECT * FROM mail_ops;
      DROP TABLE mail_ops;
      ALTER TABLE mail_ops_new RENAME TO mail_ops;
      CREATE INDEX mail_ops_by_account ON mail_ops (account_id, id);
      CREATE INDEX mail_ops_by_message ON mail_ops (message);
    `);
  },
};
