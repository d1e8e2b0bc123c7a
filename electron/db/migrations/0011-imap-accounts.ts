import type { Migration } from '../migrate.ts';

// Real mail accounts (issue 5). An IMAP account is an `accounts` row of kind 'imap' plus its server
// settings; its password (or later an OAuth token) lives in the vault, never here. Each synced folder
// remembers the server's UIDVALIDITY and HIGHESTMODSEQ. A message can sit in several mailboxes of one
// account (a copy, or Gmail's labels), so where it is on the server is a location (folder, uid) pointing
// at one `messages` row: moves and UIDVALIDITY resets re-point locations and keep the message ids that
// conversations refer to.
export const m0011: Migration = {
  version: 11,
  name: 'imap-accounts',
  up(db) {
    db.exec(`
      CREATE TABLE imap_accounts (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        imap_host TEXT NOT NULL,
        imap_port INTEGER NOT NULL CHECK (imap_port BETWEEN 1 AND 65535),
        imap_tls TEXT NOT NULL CHECK (imap_tls IN ('tls', 'starttls', 'none')),
        username TEXT NOT NULL,
        auth TEXT NOT NULL DEFAULT 'password' CHECK (auth IN ('password', 'oauth2')),
        smtp_host TEXT,
        smtp_port INTEGER CHECK (smtp_port BETWEEN 1 AND 65535),
        smtp_tls TEXT CHECK (smtp_tls IN ('tls', 'starttls', 'none')),
        created_at INTEGER NOT NULL,
        synced_at INTEGER,
        last_error TEXT
      ) STRICT;

      CREATE TABLE imap_folders (
        folder_id INTEGER PRIMARY KEY REFERENCES folders(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        special_use TEXT,
        uid_validity INTEGER,
        highest_modseq INTEGER,
        synced_at INTEGER
      ) STRICT;

      CREATE TABLE imap_locations (
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        uid INTEGER NOT NULL,
        message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        flags_json TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (folder_id, uid)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX imap_locations_by_message ON imap_locations (message);
    `);
  },
};
