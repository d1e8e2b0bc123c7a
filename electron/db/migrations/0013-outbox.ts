import type { Migration } from '../migrate.ts';

// Sending (issue 5): a message to send waits in the outbox for 10 seconds, during which Undo cancels it;
// then it goes out by SMTP and a copy is APPENDed to Sent (write-back `append_sent`). The composed message
// is kept so the Sent copy is byte for byte what was sent.
export const m0013: Migration = {
  version: 13,
  name: 'outbox',
  up(db) {
    db.exec(`
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        to_json TEXT NOT NULL,
        cc_json TEXT NOT NULL DEFAULT '[]',
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        in_reply_to INTEGER REFERENCES messages(id) ON DELETE SET NULL,
        raw BLOB,
        state TEXT NOT NULL DEFAULT 'queued'
          CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'cancelled')),
        error TEXT,
        created_at INTEGER NOT NULL,
        send_after INTEGER NOT NULL,
        sent_at INTEGER
      ) STRICT;
      CREATE INDEX outbox_due ON outbox (send_after) WHERE state = 'queued';
    `);
  },
};
