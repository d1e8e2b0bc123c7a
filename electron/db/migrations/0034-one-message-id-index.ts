import type { Migration } from '../migrate.ts';

// messages_by_message_id (0001) repeats the unique index on (message_id, content_hash), which every lookup by
// Message-ID can use as it is (the column comes first): one more B-tree written for every message stored, a
// twelfth of an import's index writes and about 1 MB per 20,000 messages (issue 18).
export const m0034: Migration = {
  version: 34,
  name: 'one-message-id-index',
  up(db) {
    db.exec('DROP INDEX messages_by_message_id');
  },
};
