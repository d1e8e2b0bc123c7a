import type { Migration } from '../migrate.ts';

// Grounded summaries of threads, cached per thread version (issue 7): the version is the thread's message
// count and newest message id, so a summary is asked again when the thread grows, and never otherwise.
export const m0016: Migration = {
  version: 16,
  name: 'summaries',
  up(db) {
    db.exec(`
      CREATE TABLE thread_summaries (
        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        version TEXT NOT NULL,
        model TEXT NOT NULL,
        question TEXT NOT NULL DEFAULT '',
        answer_json TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (thread_id, version, model, question)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
