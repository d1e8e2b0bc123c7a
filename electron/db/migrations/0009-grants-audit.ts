import type { Migration } from '../migrate.ts';

// Approval grants and the audit log (DESIGN §7). A grant lets a `write` tool run without asking, for one
// conversation or always; "once" is only an approval and is never stored, and no grant exists for `send`
// or `delete` (grants.ts refuses them, and the engine asks for those whatever is stored). A revoked grant
// keeps its row, so settings can show what was allowed and when it stopped.
//
// The audit keeps every tool call: arguments and provenance as redacted JSON, the decision and who took
// it, and a short result summary. It has no foreign keys on purpose: a log outlives the conversation and
// run it describes.
export const m0009: Migration = {
  version: 9,
  name: 'grants-audit',
  up(db) {
    db.exec(`
      CREATE TABLE grants (
        id INTEGER PRIMARY KEY,
        tool TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('conversation', 'always')),
        conversation_id INTEGER REFERENCES conversations(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER,
        CHECK ((scope = 'conversation') = (conversation_id IS NOT NULL))
      ) STRICT;
      CREATE INDEX grants_active ON grants (tool) WHERE revoked_at IS NULL;

      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        conversation_id INTEGER NOT NULL,
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
      CREATE INDEX audit_by_conversation ON audit (conversation_id, at DESC, id DESC);
      CREATE INDEX audit_by_time ON audit (at DESC, id DESC);
    `);
  },
};
