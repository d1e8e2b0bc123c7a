import type { Migration } from '../migrate.ts';

// A run can now end waiting for the user's approval (the engine's `interrupted`), which is not the same as
// a run cut off by a restart. SQLite cannot change a CHECK in place, so the table is rebuilt.
export const m0010: Migration = {
  version: 10,
  name: 'awaiting-runs',
  up(db) {
    db.exec(`
      CREATE TABLE runs_new (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        status TEXT NOT NULL
          CHECK (status IN ('running', 'done', 'error', 'aborted', 'interrupted', 'awaiting_approval')),
        error_code TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER
      ) STRICT;
      INSERT INTO runs_new SELECT id, conversation_id, status, error_code, started_at, ended_at FROM runs;
      DROP TABLE runs;
      ALTER TABLE runs_new RENAME TO runs;
      CREATE INDEX runs_running ON runs (status) WHERE status = 'running';
    `);
  },
};
