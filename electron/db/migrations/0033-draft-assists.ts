import type { Migration } from '../migrate.ts';

// What the composer shows beside a drafted reply (issue 17: its citations, the thread's facts it checks the
// body against, what was left out) is kept with the draft, so a reload or reopening it from Drafts shows it
// again. It goes with its draft: sent, discarded or deleted, the row is gone (ON DELETE CASCADE).
export const m0033: Migration = {
  version: 33,
  name: 'draft-assists',
  up(db) {
    db.exec(`
      CREATE TABLE draft_assists (
        draft_id INTEGER PRIMARY KEY REFERENCES drafts(id) ON DELETE CASCADE,
        assist_json TEXT NOT NULL
      ) STRICT;
    `);
  },
};
