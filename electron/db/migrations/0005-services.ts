import type { Migration } from '../migrate.ts';

// Model services (DESIGN §5). The key is not here: it is in `secrets` under `service:<id>`.
export const m0005: Migration = {
  version: 5,
  name: 'services',
  up(db) {
    db.exec(`
      CREATE TABLE services (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('openai', 'openai-responses', 'anthropic', 'decisions', 'systemone')),
        base_url TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
