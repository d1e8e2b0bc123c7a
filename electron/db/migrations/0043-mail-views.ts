import type { Migration } from '../migrate.ts';

// Views the mail store offers the folders above it (issue 30, DESIGN §1): a query outside electron/mail that
// must join mail with its own tables in one statement (the triage ordering joins judge answers to messages)
// reads these, never `messages` or `threads` by name, so a change to a mail table is made in one folder. Plain
// views over one table: SQLite flattens them into the query, so the plans and their indexes are unchanged.
export const m0043: Migration = {
  version: 43,
  name: 'mail-views',
  up(db) {
    db.exec(`
      CREATE VIEW message_keys AS
        SELECT id, thread_id, folder_id, content_hash, date, starred FROM messages;
      CREATE VIEW thread_keys AS
        SELECT id, message_count, last_date FROM threads;
    `);
  },
};
