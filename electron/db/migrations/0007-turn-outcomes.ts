import type { Migration } from '../migrate.ts';

// How a turn ended, on the last message stored for it (the answer, or the user's words when nothing
// arrived), so a reloaded conversation still shows that an answer was stopped or failed.
export const m0007: Migration = {
  version: 7,
  name: 'turn-outcomes',
  up(db) {
    db.exec(`
      ALTER TABLE conversation_messages ADD COLUMN outcome TEXT CHECK (outcome IN ('stopped', 'failed'));
      ALTER TABLE conversation_messages ADD COLUMN error_code TEXT;
    `);
  },
};
