import type { Migration } from '../migrate.ts';

// Calendar invitations (issue 29 §2). `invitation_answers`: the person's answer to an event, per account and UID
// (an update keeps its UID and raises its SEQUENCE), with the outbox message that carries the REPLY: while that
// message is queued, sending or sent the answer stands; an Undo takes the message out of the outbox and the
// answer with it (outbox_id goes NULL). `invitation_versions`: what each invitation message said when Skimmer
// read it (time, place, title), so an update or a cancellation can say what changed since the earlier one.
export const m0046: Migration = {
  version: 46,
  name: 'invitation-answers',
  up(db) {
    db.exec(`
      CREATE TABLE invitation_answers (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        uid TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        answer TEXT NOT NULL CHECK (answer IN ('ACCEPTED', 'TENTATIVE', 'DECLINED')),
        answered_at INTEGER NOT NULL,
        message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
        outbox_id INTEGER REFERENCES outbox(id) ON DELETE SET NULL
      ) STRICT;
      CREATE INDEX invitation_answers_by_uid ON invitation_answers (account_id, uid);
      CREATE TABLE invitation_versions (
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        uid TEXT NOT NULL,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        sequence INTEGER NOT NULL,
        method TEXT NOT NULL,
        title TEXT NOT NULL,
        start_json TEXT NOT NULL,
        end_json TEXT,
        location TEXT,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, uid, message_id)
      ) STRICT;
    `);
  },
};
