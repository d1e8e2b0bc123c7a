import type { Migration } from '../migrate.ts';

// Measured on a 100k-message mailbox: the folder list read every message row (bodies included) to count
// unread ones, 2.5 s cold; a page of threads sorted every thread. Covering indexes make both lookups,
// and the date index carries the id so pages of threads with the same date are stable.
export const m0003: Migration = {
  version: 3,
  name: 'list-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX messages_by_folder_unread ON messages (folder_id, unread);
      DROP INDEX threads_by_date;
      CREATE INDEX threads_by_date ON threads (last_date DESC, id DESC);
    `);
  },
};
