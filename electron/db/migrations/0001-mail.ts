import type { Migration } from '../migrate.ts';

export const m0001: Migration = {
  version: 1,
  name: 'mail',
  up(db) {
    db.exec(`
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('local', 'imap')),
        name TEXT NOT NULL UNIQUE
      ) STRICT;
      INSERT INTO accounts (kind, name) VALUES ('local', 'Local');

      CREATE TABLE folders (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        source TEXT NOT NULL,
        UNIQUE (account_id, source)
      ) STRICT;

      CREATE TABLE threads (
        id INTEGER PRIMARY KEY,
        subject TEXT NOT NULL,
        subject_key TEXT NOT NULL,
        last_date INTEGER NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX threads_by_date ON threads (last_date DESC);
      CREATE INDEX threads_by_subject ON threads (subject_key, last_date);

      -- Every Message-ID a thread has seen (its messages' own ids and the ids they reference), so that a
      -- reply threads correctly whichever of the two is imported first.
      CREATE TABLE thread_refs (
        message_id TEXT PRIMARY KEY,
        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX thread_refs_by_thread ON thread_refs (thread_id);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        thread_id INTEGER NOT NULL REFERENCES threads(id),
        message_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        in_reply_to TEXT,
        refs TEXT NOT NULL DEFAULT '[]',
        subject TEXT NOT NULL,
        from_name TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        from_text TEXT NOT NULL,
        to_json TEXT NOT NULL,
        cc_json TEXT NOT NULL,
        to_text TEXT NOT NULL,
        date INTEGER NOT NULL,
        body_text TEXT NOT NULL,
        body_html TEXT,
        attachments_json TEXT NOT NULL DEFAULT '[]',
        has_attachments INTEGER NOT NULL DEFAULT 0,
        unread INTEGER NOT NULL DEFAULT 1,
        source TEXT NOT NULL,
        size INTEGER NOT NULL,
        UNIQUE (message_id, content_hash)
      ) STRICT;
      CREATE INDEX messages_by_message_id ON messages (message_id);
      CREATE INDEX messages_by_thread ON messages (thread_id, date);
      CREATE INDEX messages_by_folder_thread ON messages (folder_id, thread_id);

      -- FTS5 over the stored messages (DESIGN §3), reading its content back through a view so that the
      -- column filters users type are short (from:, to:, subject:, body:). Diacritics are folded so
      -- that "muller" finds "Müller". Triggers keep it in step with messages.
      CREATE VIEW messages_fts_source AS
        SELECT id, subject, from_text AS "from", to_text AS "to", body_text AS body FROM messages;
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        subject, "from", "to", body,
        content = 'messages_fts_source', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, subject, "from", "to", body)
          VALUES (new.id, new.subject, new.from_text, new.to_text, new.body_text);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, subject, "from", "to", body)
          VALUES ('delete', old.id, old.subject, old.from_text, old.to_text, old.body_text);
      END;

      CREATE TABLE import_failures (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        reason TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
