import type { Migration } from '../migrate.ts';

// Write-back (issue 5): a change to mail in an IMAP account is applied here at once and queued for the
// server; a sync replays the queue in order before it reads the server. An op that the server refused
// stays as `failed` with Skimmer's sentence, shown on its message with a Retry; one that could not reach the
// server stays `pending` and is tried again at the next sync (also after a restart).
export const m0012: Migration = {
  version: 12,
  name: 'mail-ops',
  up(db) {
    db.exec(`
      CREATE TABLE mail_ops (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        message INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        kind TEXT NOT NULL
          CHECK (kind IN ('seen', 'move', 'keywords', 'append_draft', 'drop_draft', 'append_sent')),
        payload_json TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX mail_ops_by_account ON mail_ops (account_id, id);
      CREATE INDEX mail_ops_by_message ON mail_ops (message);
    `);
  },
};
