import type { Migration } from '../migrate.ts';

// The audit log also keeps what bulk work did with the mail (issue 6: triage answers "with the model and
// time in the audit log"; the writes a triage rule carried out after the user approved them). Such work has
// no conversation, so `conversation_id` may be empty; a job's answers carry its `job_id`. SQLite cannot relax
// NOT NULL in place: the table is rebuilt with its rows and indexes.
export const m0018: Migration = {
  version: 18,
  name: 'audit-jobs',
  up(db) {
    db.exec(`
      CREATE TABLE audit_new (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        conversation_id INTEGER,
        job_id INTEGER,
        run_id INTEGER,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('read', 'write', 'send', 'delete')),
        args_json TEXT NOT NULL,
        provenance_json TEXT NOT NULL,
        decision TEXT NOT NULL
          CHECK (decision IN ('allowed', 'approved', 'denied', 'auto-denied', 'invalid', 'cancelled')),
        decided_by TEXT NOT NULL CHECK (decided_by IN ('gate', 'grant', 'user', 'engine')),
        result_summary TEXT NOT NULL CHECK (length(result_summary) <= 500),
        is_error INTEGER NOT NULL CHECK (is_error IN (0, 1))
      ) STRICT;
      INSERT INTO audit_new (id, at, conversation_id, run_id, call_id, tool, effect, args_json, provenance_json,
        decision, decided_by, result_summary, is_error)
      SELECT id, at, conversation_id, run_id, call_id, tool, effect, args_json, provenance_json,
        decision, decided_by, result_summary, is_error FROM audit;
      DROP TABLE audit;
      ALTER TABLE audit_new RENAME TO audit;
      CREATE INDEX audit_by_conversation ON audit (conversation_id, at DESC, id DESC);
      CREATE INDEX audit_by_job ON audit (job_id, at DESC, id DESC) WHERE job_id IS NOT NULL;
      CREATE INDEX audit_by_time ON audit (at DESC, id DESC);
    `);
  },
};
