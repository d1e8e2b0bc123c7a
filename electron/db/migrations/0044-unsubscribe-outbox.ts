import type { Migration } from '../migrate.ts';

// An unsubscribe by email (issue 29 §3) is a message in the outbox, which Undo can take back during its window:
// the sender's row names that outbox message, so "Unsubscribed on DATE" holds only while it is queued, going or
// sent (mail/unsubscribe/unsubscribe-store.ts). NULL for a one-click POST or a link opened, which cannot be undone.
export const m0044: Migration = {
  version: 44,
  name: 'unsubscribe-outbox',
  up(db) {
    db.exec('ALTER TABLE unsubscribed_senders ADD COLUMN outbox_id INTEGER');
  },
};
