import type { Migration } from '../migrate.ts';

// Judge and triage (issue 6). Question sets the user writes; answers cached by (message content hash,
// question hash, model) so nothing is asked twice; triage jobs over many messages, persisted item by item so
// a restart resumes where the job stopped.
export const m0014: Migration = {
  version: 14,
  name: 'judge',
  up(db) {
    db.exec(`
      CREATE TABLE judge_question_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        questions_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE judge_answers (
        content_hash TEXT NOT NULL,
        question_hash TEXT NOT NULL,
        model TEXT NOT NULL,
        name TEXT NOT NULL,
        answer_json TEXT NOT NULL,
        certainty TEXT NOT NULL CHECK (certainty IN ('probabilities', 'binary')),
        request_id TEXT,
        at INTEGER NOT NULL,
        PRIMARY KEY (content_hash, question_hash, model)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE triage_jobs (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES judge_question_sets(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        scope_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'done', 'cancelled', 'failed')),
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE triage_items (
        job_id INTEGER NOT NULL REFERENCES triage_jobs(id) ON DELETE CASCADE,
        message INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
        error TEXT,
        PRIMARY KEY (job_id, message)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX triage_items_pending ON triage_items (job_id, state);
    `);
  },
};
