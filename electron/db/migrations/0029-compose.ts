import type { Migration } from '../migrate.ts';

// The composer (DESIGN §11, "Write mail"). A draft and an outbox message carry the From the user chose (one of
// their addresses; NULL: the sending account's own), Bcc, and the message they forward. Their files live in
// `draft_attachments`, on a draft or on an outbox message (never both), moved from one to the other with the
// message, so Undo and Dismiss lose nothing: a file the user attached keeps its bytes here; a forwarded one
// only names the original (its message id and its place in the original's attachment list), its bytes are
// read where the original is kept when it is sent. A draft records the copy it has in an account's Drafts
// folder (`server_account`, `server_message_id`), so a saved draft replaces it there. `messages.reply_to_json`
// is the Reply-To a reply goes to (parse.ts). `contacts` is everyone named in From, To or Cc, with how many
// messages name them, kept by triggers (the composer's completion, mail:contacts), with a version the triggers
// raise so a reader knows when its copy is stale.
export const m0029: Migration = {
  version: 29,
  name: 'compose',
  up(db) {
    db.exec(`
      ALTER TABLE drafts ADD COLUMN from_address TEXT;
      ALTER TABLE drafts ADD COLUMN bcc_json TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE drafts ADD COLUMN forward_of INTEGER REFERENCES messages(id) ON DELETE SET NULL;
      ALTER TABLE drafts ADD COLUMN server_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL;
      ALTER TABLE drafts ADD COLUMN server_message_id TEXT;

      ALTER TABLE outbox ADD COLUMN from_address TEXT;
      ALTER TABLE outbox ADD COLUMN bcc_json TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE outbox ADD COLUMN forward_of INTEGER REFERENCES messages(id) ON DELETE SET NULL;

      ALTER TABLE messages ADD COLUMN reply_to_json TEXT NOT NULL DEFAULT '[]';

      CREATE TABLE draft_attachments (
        id INTEGER PRIMARY KEY,
        draft_id INTEGER REFERENCES drafts(id) ON DELETE CASCADE,
        outbox_id INTEGER REFERENCES outbox(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        content BLOB,
        -- No foreign key: an original that left the mailbox must fail the send with a sentence, not vanish.
        message INTEGER,
        part_index INTEGER,
        created_at INTEGER NOT NULL,
        CHECK ((draft_id IS NULL) <> (outbox_id IS NULL)),
        CHECK ((content IS NULL) <> (message IS NULL AND part_index IS NULL))
      ) STRICT;
      CREATE INDEX draft_attachments_by_draft ON draft_attachments (draft_id) WHERE draft_id IS NOT NULL;
      CREATE INDEX draft_attachments_by_outbox ON draft_attachments (outbox_id) WHERE outbox_id IS NOT NULL;

      CREATE TABLE contacts (
        address TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        count INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      -- Raised by every change to contacts: a reader keeps its folded copy until it moves (store/contacts.ts).
      CREATE TABLE contacts_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
      ) STRICT;
      INSERT INTO contacts_version (id, version) VALUES (1, 0);
    `);
    // The people a message names, each once, lower-cased as addressKey compares them; a name wins over none.
    const usable = "a LIKE '_%@_%' AND instr(trim(a), ' ') = 0";
    const named = (row: 'new' | 'old') => `
      SELECT lower(trim(a)) AS address, ifnull(max(trim(n)), '') AS name FROM (
        SELECT ${row}.from_addr AS a, ${row}.from_name AS n
        UNION ALL SELECT value ->> 'address', value ->> 'name' FROM json_each(${row}.to_json)
        UNION ALL SELECT value ->> 'address', value ->> 'name' FROM json_each(${row}.cc_json)
      ) WHERE ${usable} GROUP BY lower(trim(a))`;
    db.exec(`
      INSERT INTO contacts (address, name, count)
        SELECT address, max(name), count(*) FROM (
          SELECT id, lower(trim(a)) AS address, ifnull(max(trim(n)), '') AS name FROM (
            SELECT id, from_addr AS a, from_name AS n FROM messages
            UNION ALL SELECT m.id, j.value ->> 'address', j.value ->> 'name' FROM messages m, json_each(m.to_json) j
            UNION ALL SELECT m.id, j.value ->> 'address', j.value ->> 'name' FROM messages m, json_each(m.cc_json) j
          ) WHERE ${usable} GROUP BY id, lower(trim(a))
        ) GROUP BY address;
      CREATE TRIGGER contacts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO contacts (address, name, count) SELECT address, name, 1 FROM (${named('new')}) WHERE true
          ON CONFLICT (address) DO UPDATE SET count = count + 1,
            name = CASE WHEN contacts.name = '' THEN excluded.name ELSE contacts.name END;
        UPDATE contacts_version SET version = version + 1;
      END;
      CREATE TRIGGER contacts_delete AFTER DELETE ON messages BEGIN
        UPDATE contacts SET count = count - 1 WHERE address IN (SELECT address FROM (${named('old')}));
        DELETE FROM contacts WHERE count <= 0 AND address IN (SELECT address FROM (${named('old')}));
        UPDATE contacts_version SET version = version + 1;
      END;
    `);
  },
};
