import type { Migration } from '../migrate.ts';

// Answers to `summary:ask` (issue 7), cached like thread summaries: the key is the sha256 of what the answer was
// asked over — model, question, the messages and documents by id and content hash
// (electron/bridge/handlers/summary.ts) — so a thread that grew or a different selection is a new key, asked
// again, and a stale row is never read.
export const m0021: Migration = {
  version: 21,
  name: 'ask-answers',
  up(db) {
    db.exec(`
      CREATE TABLE ask_answers (
        key TEXT PRIMARY KEY,
        answer_json TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
