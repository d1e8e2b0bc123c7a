import type { Migration } from '../migrate.ts';

// Search lists the newest mail first and stops as soon as a page is full (DESIGN §11 "Search", issue 18):
// the search index's rowid becomes `search_key`, a number that sorts as the message's date (whole seconds)
// and then its id, so FTS5 hands the matches over newest first and a query reads only as many as the page
// needs, however many messages hold the words. The key holds the id in its low 31 bits, so a hit's message
// is found by id without an index; dates before 1970 count as 1970 and the key stops at 2106.
// Operator queries without words walk the mail by date through covering indexes. The index is rebuilt
// once, here (about 20 s for 100,000 messages).
export const m0030: Migration = {
  version: 30,
  name: 'search-newest-first',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN search_key INTEGER GENERATED ALWAYS AS
        ((min(max(date, 0) / 1000, 4294967295) << 31) | (id & 2147483647)) VIRTUAL;
      CREATE UNIQUE INDEX messages_by_search_key ON messages (search_key);

      DROP TRIGGER messages_fts_delete;
      DROP TABLE messages_fts;
      DROP VIEW messages_fts_source;
      CREATE VIEW messages_fts_source AS
        SELECT search_key, subject, from_text AS "from", to_text AS "to", body_text AS body FROM messages;
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        subject, "from", "to", body,
        content = 'messages_fts_source', content_rowid = 'search_key',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, subject, "from", "to", body)
          VALUES ('delete', old.search_key, old.subject, old.from_text, old.to_text, old.body_text);
      END;
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');

      CREATE INDEX messages_by_date ON messages (date DESC, id DESC, thread_id, folder_id, unread, starred);
      CREATE INDEX messages_by_unread ON messages (unread, date DESC, id DESC, thread_id, folder_id);
      CREATE INDEX messages_by_starred ON messages (starred, date DESC, id DESC);
      CREATE INDEX messages_by_attachment ON messages (has_attachments, date DESC, id DESC);
    `);
  },
};
