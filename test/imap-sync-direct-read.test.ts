// The first sync reads rebuilt text-only messages directly (electron/mail/import/parse-direct.ts) instead of through
// mailparser (issue 5, bench/imap-sync.ts). What it stores must not change: the same sample of the benchmark
// corpus (every legacy charset, plain, alternative and mixed messages, replies) is synced from a real Dovecot
// twice, once as the app does and once with every message through mailparser as before, and the stored rows,
// threads, locations and search results are compared.
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ExpectedLine, generateMailbox } from '../bench/generate-mailbox.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { type SyncOptions, syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { parseMessage, parseWithMailparser, readDirectMessage } from '../electron/mail/import/parse.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { prepareSearch } from '../electron/mail/store/search.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { tempDir } from './support/temp.ts';

const count = 1000;
const dir = tempDir();
let server: Dovecot;
let expected: ExpectedLine[];
let structures: { textPlain: number; alternative: number; mixed: number; replies: number };
let direct: Db;
let mailparser: Db;
let readDirectly = 0;

async function syncInto(name: string, parse: SyncOptions['parse']): Promise<Db> {
  const db = openDatabase(join(dir, `${name}.db`));
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'test')").run().lastInsertRowid,
  );
  const summary = await syncAccount(db, loginFor(server, accountId, 'test'), { parse });
  expect(summary.added).toBe(count);
  return db;
}

beforeAll(async () => {
  const summary = generateMailbox({ count, out: join(dir, 'sample.mbox') });
  structures = summary;
  expected = readFileSync(summary.expected, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExpectedLine);
  const raws: Buffer[] = [];
  for await (const m of splitMbox(createReadStream(summary.out))) raws.push(m.raw);
  server = await startDovecot();
  server.seedMaildir('test@example.com', 'INBOX', raws);
  direct = await syncInto('direct', async (raw, options) => {
    if (readDirectMessage(raw)) readDirectly += 1;
    return parseMessage(raw, options);
  });
  // Every message through mailparser, as every message went before the direct reading existed.
  mailparser = await syncInto('mailparser', (raw, options) => parseWithMailparser(raw, options));
}, 120_000);

afterAll(async () => {
  direct?.close();
  mailparser?.close();
  await server?.stop();
});

const rows = (db: Db, sql: string) => db.prepare(sql).all();

describe('the direct reading of synced messages', () => {
  test('the sample holds every legacy charset and every structure of the corpus', () => {
    expect(new Set(expected.map((e) => e.charset)).size).toBe(10);
    expect(structures.textPlain).toBeGreaterThan(0);
    expect(structures.alternative).toBeGreaterThan(0);
    expect(structures.mixed).toBeGreaterThan(0);
    expect(structures.replies).toBeGreaterThan(0);
    // Almost all of them take the direct path; the comparison below is not about a handful.
    expect(readDirectly).toBeGreaterThan(count * 0.95);
  });

  test('stores the same message rows as mailparser: subjects, addresses, bodies, attachments, hashes', () => {
    const sql = 'SELECT * FROM messages ORDER BY id';
    expect(rows(direct, sql)).toEqual(rows(mailparser, sql));
  });

  test('builds the same threads and locations', () => {
    expect(rows(direct, 'SELECT * FROM threads ORDER BY id')).toEqual(
      rows(mailparser, 'SELECT * FROM threads ORDER BY id'),
    );
    expect(rows(direct, 'SELECT * FROM thread_refs ORDER BY message_id')).toEqual(
      rows(mailparser, 'SELECT * FROM thread_refs ORDER BY message_id'),
    );
    expect(
      rows(direct, 'SELECT folder_id, uid, message, flags_json FROM imap_locations ORDER BY uid'),
    ).toEqual(
      rows(mailparser, 'SELECT folder_id, uid, message, flags_json FROM imap_locations ORDER BY uid'),
    );
  });

  test('decodes every legacy-charset subject and greeting exactly', () => {
    const stored = direct.prepare<[string], { subject: string; body_text: string }>(
      'SELECT subject, body_text FROM messages WHERE message_id = ?',
    );
    for (const e of expected) {
      const m = stored.get(e.messageId);
      expect(m?.subject, e.charset).toBe(e.subject);
      expect(m?.body_text, e.charset).toContain(e.phrase);
    }
  });

  test('finds the same messages for the same searches', () => {
    const queries = [
      'invoice',
      'meeting',
      '"quarterly report"',
      'Привет',
      'Zażółć',
      'müller',
      '会議',
      'conf*',
    ];
    for (const q of queries) {
      expect(prepareSearch(direct)(q, 50), q).toEqual(prepareSearch(mailparser)(q, 50));
    }
  });
});
