import type { Migration } from '../migrate.ts';

// Trash and folders written back (issue 29 §7) and labels renamed or deleted on the server (§4).
// `trash_origins`: the folder a message was in when it was moved to Trash, so Restore puts it back there (else
// the Inbox). Like spam_origins it lives while the message stays in Trash: any other move drops it (undo.ts).
// mail_ops is rebuilt because its kind CHECK names every kind: `expunge` (Delete forever: the server copies by
// mailbox and uid, since the message row is gone when it runs), and the account's own `folder_create`,
// `folder_rename` and `folder_delete`.
export const m0045: Migration = {
  version: 45,
  name: 'trash-folders-ops',
  up(db) {
    db.exec(`
      CREATE TABLE trash_origins (
        message INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX trash_origins_by_folder ON trash_origins (folder_id);

      CREATE TABLE mail_ops_new (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        message INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (
          kind IN ('seen', 'flagged', 'move', 'keywords', 'append_draft', 'drop_draft', 'append_sent',
                   'expunge', 'folder_create', 'folder_rename', 'folder_delete')),
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
