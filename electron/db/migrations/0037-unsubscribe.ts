import type { Migration } from '../migrate.ts';

// Unsubscribing (issue 29 §3): how each message offers it, read once from its List-Unsubscribe and
// List-Unsubscribe-Post headers when it is stored (a message without a usable header has no row), and the senders
// you unsubscribed from, by lower-cased address, with when and how (the reader's "Unsubscribed on DATE").
// Written by mail/unsubscribe/unsubscribe-store.ts.
export const m0037: Migration = {
  version: 37,
  name: 'unsubscribe',
  up(db) {
    db.exec(`
      CREATE TABLE message_unsubscribe (
        message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        https TEXT,
        http TEXT,
        mailto TEXT,
        one_click INTEGER NOT NULL CHECK (one_click IN (0, 1))
      ) STRICT;
      CREATE TABLE unsubscribed_senders (
        address TEXT PRIMARY KEY,
        at INTEGER NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('one-click', 'mailto', 'http'))
      ) STRICT;
    `);
  },
};
