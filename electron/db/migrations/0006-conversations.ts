import type { Migration } from '../migrate.ts';

// Conversations (DESIGN §3): each stored message is one neutral turn (blocks as JSON), in order. A run is
// one request to a model; a run still `running` when Skimmer starts was cut off by a restart.
export const m0006: Migration = {
  version: 6,
  name: 'conversations',
  up(db) {
    db.exec(`
      CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        model TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE conversation_messages (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content_json TEXT NOT NULL,
        usage_json TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (conversation_id, seq)
      ) STRICT;
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'error', 'aborted', 'interrupted')),
        error_code TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER
      ) STRICT;
      CREATE INDEX runs_running ON runs (status) WHERE status = 'running';
    `);
  },
};
