import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { latestVersion, migrate } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { openDatabase } from './open.ts';

const latest = latestVersion;

describe('migrations', () => {
  test('are numbered in increasing order, each number once, starting at 1', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  });

  // Every table, view, index and trigger with its SQL, spaces collapsed: what a database's schema is.
  type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };
  const schemaOf = (db: Database.Database): SchemaRow[] =>
    db
      .prepare<[], SchemaRow>('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')
      .all()
      .map((row) => ({ ...row, sql: row.sql?.replace(/\s+/g, ' ').trim() ?? null }));

  const fresh = new Database(':memory:');
  migrate(fresh);
  const freshSchema = schemaOf(fresh);

  test('a fresh database has the tables, indexes and triggers the code relies on', () => {
    const names = (type: string) => freshSchema.filter((row) => row.type === type).map((row) => row.name);
    expect(names('table')).toEqual(
      expect.arrayContaining(['accounts', 'folders', 'messages', 'messages_fts', 'threads', 'secrets']),
    );
    expect(names('index').length).toBeGreaterThan(0);
    expect(names('trigger').length).toBeGreaterThan(0);
  });

  test.each(migrations.map((m) => m.version).slice(0, -1))(
    'a database upgraded from version %i has exactly the schema of a fresh one',
    (from) => {
      const db = new Database(':memory:');
      db.pragma('foreign_keys = ON');
      expect(migrate(db, from)).toBe(from);
      expect(migrate(db)).toBe(latest);
      expect(schemaOf(db)).toEqual(freshSchema);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    },
  );

  test('keeps stored mail when a later migration runs', () => {
    const db = new Database(':memory:');
    migrate(db, 1);
    db.exec(`INSERT INTO folders (account_id, name, source) VALUES (1, 'Inbox', '/x');
      INSERT INTO threads (subject, subject_key, last_date, message_count) VALUES ('Hi', 'hi', 1, 1);
      INSERT INTO messages (folder_id, thread_id, message_id, content_hash, subject, from_name, from_addr, from_text,
        to_json, cc_json, to_text, date, body_text, source, size)
        VALUES (1, 1, '<m@x>', 'h', 'Hi', 'A', 'a@x', 'A <a@x>', '[]', '[]', '', 1, 'kept body', '/x/1', 10);`);
    migrate(db);
    expect(
      db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'kept'").pluck().all(),
    ).toEqual([1]);
  });

  test('keeps the audit log when it is rebuilt to hold entries without a conversation (0018)', () => {
    const db = new Database(':memory:');
    migrate(db, 17);
    db.exec(`INSERT INTO audit (at, conversation_id, run_id, call_id, tool, effect, args_json, provenance_json,
      decision, decided_by, result_summary, is_error)
      VALUES (5, 3, 4, 'c1', 'send_mail', 'send', '{}', '{}', 'approved', 'user', 'Sent.', 0)`);
    migrate(db);
    expect(
      db.prepare('SELECT id, conversation_id, job_id, call_id, result_summary FROM audit').all(),
    ).toEqual([{ id: 1, conversation_id: 3, job_id: null, call_id: 'c1', result_summary: 'Sent.' }]);
    db.exec(`INSERT INTO audit (at, conversation_id, job_id, call_id, tool, effect, args_json, provenance_json,
      decision, decided_by, result_summary, is_error)
      VALUES (6, NULL, 9, 'triage-9-1', 'judge', 'read', '{}', '{}', 'allowed', 'user', 'Answered.', 0)`);
    expect(db.prepare('SELECT count(*) FROM audit WHERE job_id = 9').pluck().get()).toBe(1);
  });

  test('keeps the state of a synced IMAP folder, with no UIDNEXT, so its next sync compares it whole (0020)', () => {
    const db = new Database(':memory:');
    migrate(db, 19);
    db.exec(`INSERT INTO folders (account_id, name, source) VALUES (1, 'Inbox', 'imap:INBOX');
      INSERT INTO imap_folders (folder_id, path, uid_validity, highest_modseq, synced_at) VALUES (1, 'INBOX', 7, 40, 5);`);
    migrate(db);
    expect(db.prepare('SELECT uid_validity, highest_modseq, uid_next FROM imap_folders').get()).toEqual({
      uid_validity: 7,
      highest_modseq: 40,
      uid_next: null,
    });
  });

  test('adds the cache of asked answers, one per key, and leaves thread summaries as they were (0021)', () => {
    const db = new Database(':memory:');
    migrate(db, 20);
    db.exec(`INSERT INTO threads (subject, subject_key, last_date, message_count) VALUES ('Hi', 'hi', 1, 1);
      INSERT INTO thread_summaries (thread_id, version, model, question, answer_json, at) VALUES (1, '1:1', 'local/m', '', '{}', 5);`);
    migrate(db);
    expect(db.prepare('SELECT thread_id, answer_json FROM thread_summaries').all()).toEqual([
      { thread_id: 1, answer_json: '{}' },
    ]);
    const store = db.prepare('INSERT OR REPLACE INTO ask_answers (key, answer_json, at) VALUES (?, ?, ?)');
    store.run('k1', '{"answer":"old"}', 1);
    store.run('k1', '{"answer":"new"}', 2);
    expect(db.prepare('SELECT key, answer_json, at FROM ask_answers').all()).toEqual([
      { key: 'k1', answer_json: '{"answer":"new"}', at: 2 },
    ]);
    // STRICT: a time that is not a number is refused.
    expect(() => store.run('k2', '{}', 'soon')).toThrow();
  });

  test('keeps stored turns unmarked when it adds the notice on an answer (0023)', () => {
    const db = new Database(':memory:');
    migrate(db, 22);
    db.exec(`INSERT INTO conversations (title, model, created_at, updated_at) VALUES ('Hi', 'local/m', 1, 1);
      INSERT INTO conversation_messages (conversation_id, seq, role, content_json, created_at)
        VALUES (1, 1, 'assistant', '[]', 1);`);
    migrate(db);
    expect(db.prepare('SELECT seq, notice_code FROM conversation_messages').all()).toEqual([
      { seq: 1, notice_code: null },
    ]);
  });

  test('stores your addresses lower-cased and once (0024)', () => {
    const db = new Database(':memory:');
    migrate(db, 23);
    migrate(db);
    const add = db.prepare('INSERT INTO identities (address, created_at) VALUES (?, 1)');
    add.run('me@example.com');
    expect(() => add.run('me@example.com')).toThrow(/UNIQUE/);
    expect(() => add.run('Me@Example.com')).toThrow(/CHECK/);
    expect(() => add.run(' me@work.example')).toThrow(/CHECK/);
    expect(() => add.run('')).toThrow(/CHECK/);
  });

  test('stars the synced messages the server flagged, and keeps the queued ops (0025)', () => {
    const db = new Database(':memory:');
    migrate(db, 24);
    db.exec(`INSERT INTO accounts (id, kind, name) VALUES (2, 'imap', 'a');
      INSERT INTO folders (id, account_id, name, source) VALUES (1, 2, 'Inbox', 'imap:INBOX');
      INSERT INTO threads (id, subject, subject_key, last_date, message_count) VALUES (1, 'Hi', 'hi', 1, 2);
      INSERT INTO messages (id, folder_id, thread_id, message_id, content_hash, subject, from_name, from_addr,
        from_text, to_json, cc_json, to_text, date, body_text, source, size)
        VALUES (1, 1, 1, '<a@x>', 'h', 'Hi', 'A', 'a@x', 'A <a@x>', '[]', '[]', '', 1, 'b', 'x', 1),
               (2, 1, 1, '<b@x>', 'h', 'Hi', 'A', 'a@x', 'A <a@x>', '[]', '[]', '', 1, 'b', 'x', 1);
      INSERT INTO imap_locations (folder_id, uid, message, flags_json)
        VALUES (1, 1, 1, '["\\\\Flagged","\\\\Seen"]'), (1, 2, 2, '["\\\\Seen"]');
      INSERT INTO mail_ops (account_id, message, kind, payload_json, created_at)
        VALUES (2, 2, 'seen', '{"seen":true}', 5);`);
    migrate(db);
    expect(db.prepare('SELECT id, starred FROM messages ORDER BY id').all()).toEqual([
      { id: 1, starred: 1 },
      { id: 2, starred: 0 },
    ]);
    expect(db.prepare('SELECT message, kind FROM mail_ops').all()).toEqual([{ message: 2, kind: 'seen' }]);
    db.exec(`INSERT INTO mail_ops (account_id, message, kind, payload_json, created_at)
      VALUES (2, 1, 'flagged', '{"flagged":false}', 6)`);
  });

  test('fills contacts from the stored mail, each address once with its name, and keeps them (0029)', () => {
    const db = new Database(':memory:');
    migrate(db, 28);
    db.exec(`INSERT INTO folders (id, account_id, name, source) VALUES (1, 1, 'Inbox', 'x');
      INSERT INTO threads (id, subject, subject_key, last_date, message_count) VALUES (1, 'Hi', 'hi', 1, 2);
      INSERT INTO messages (id, folder_id, thread_id, message_id, content_hash, subject, from_name, from_addr,
        from_text, to_json, cc_json, to_text, date, body_text, source, size)
        VALUES (1, 1, 1, '<a@x>', 'h', 'Hi', '', 'Ann@X.example', '', '[{"name":"Bo","address":"bo@x.example"}]',
                '[{"name":"","address":"not an address"}]', '', 1, 'b', 'x', 1),
               (2, 1, 1, '<b@x>', 'h', 'Hi', 'Ann', 'ann@x.example', '', '[{"name":"","address":"ann@x.example"}]',
                '[]', '', 1, 'b', 'x', 1);`);
    migrate(db);
    const contacts = () => db.prepare('SELECT address, name, count FROM contacts ORDER BY address').all();
    expect(contacts()).toEqual([
      { address: 'ann@x.example', name: 'Ann', count: 2 },
      { address: 'bo@x.example', name: 'Bo', count: 1 },
    ]);
    const version = () => db.prepare('SELECT version FROM contacts_version').pluck().get();
    const before = version();
    // Stored messages are in the search index (store.ts indexStored), whose delete trigger expects them there.
    db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
    db.exec('DELETE FROM messages WHERE id = 1');
    expect(contacts()).toEqual([{ address: 'ann@x.example', name: 'Ann', count: 1 }]);
    expect(version()).not.toBe(before);
  });

  test('refuses a database from a newer Skimmer', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${latest + 1}`);
    expect(() => migrate(db)).toThrow('newer than this Skimmer');
  });

  test('a failing migration leaves the database at the previous version', () => {
    const db = new Database(':memory:');
    migrate(db, 1);
    db.exec('CREATE TABLE secrets (x INTEGER)'); // makes migration 2 fail
    expect(() => migrate(db)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
  });

  test('opens a file database in WAL mode with foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'skimmer.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
  });

  test('takes the write lock when a transaction begins, so a read-then-write never fails midway', () => {
    const file = join(tempDir(), 'skimmer.db');
    const a = openDatabase(file);
    const b = openDatabase(file);
    b.pragma('busy_timeout = 0');
    const writeFromB = () => b.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'b')").run();
    // Inside A's transaction, before A has written anything, B cannot take the write lock.
    const outcome = a.transaction(() => {
      a.prepare('SELECT count(*) FROM accounts').get();
      try {
        writeFromB();
        return 'b wrote';
      } catch (e) {
        return (e as { code?: string }).code;
      }
    })();
    expect(outcome).toBe('SQLITE_BUSY');
    expect(writeFromB().changes).toBe(1);
  });
});
