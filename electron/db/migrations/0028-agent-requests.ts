import type { Migration } from '../migrate.ts';

// Outside agents (`skimmer mcp`, DESIGN §13 "Outside agents"). The audit names the agent that made a call
// (`client`, as it named itself; NULL for the app's own assistant and for triage). A call that needs the
// user's approval, from an agent whose client cannot ask the user itself, waits as a row of
// `agent_requests` until the running app answers it, it expires, or the agent goes away: the MCP server and
// the app are two processes sharing this database. Its arguments and preview are what the card shows; the
// MCP server keeps the call itself and runs it only for an answer that names this row and `args_hash`.
// `app_presence` is one row the running app rewrites every few seconds, so the MCP server can tell at once
// that nobody is there to answer.
export const m0028: Migration = {
  version: 28,
  name: 'agent-requests',
  up(db) {
    db.exec(`
      ALTER TABLE audit ADD COLUMN client TEXT;
      CREATE INDEX audit_by_client ON audit (id) WHERE client IS NOT NULL;

      CREATE TABLE agent_requests (
        id INTEGER PRIMARY KEY,
        client TEXT NOT NULL,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('write', 'send', 'delete')),
        args_json TEXT NOT NULL,
        args_hash TEXT NOT NULL CHECK (length(args_hash) = 64),
        provenance_json TEXT NOT NULL,
        preview_json TEXT NOT NULL,
        asked_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending'
          CHECK (state IN ('pending', 'approved', 'denied', 'expired', 'withdrawn')),
        decided_at INTEGER
      ) STRICT;
      CREATE INDEX agent_requests_pending ON agent_requests (id) WHERE state = 'pending';

      CREATE TABLE app_presence (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        pid INTEGER NOT NULL,
        beat_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
