// The composer's completion (mail:contacts) on the database bench/import.ts leaves behind: prefixes that
// match many people, few, and none (the whole `contacts` table read), 200 rounds each through
// prepareContacts; and what the trigger that keeps `contacts` (migration 0026) adds to storing messages:
// 5,000 stored messages inserted again (new hashes) with the trigger and without it, each in a transaction
// that is rolled back.
//
//   node bench/contacts.ts [--count 20000] [--rounds 200]
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { prepareContacts } from '../electron/mail/store/contacts.ts';
import { ensureDatabase } from './corpus.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '200' } },
});
const db = openDatabase(ensureDatabase(Number(values.count)));
const count = (sql: string) => db.prepare(sql).pluck().get() as number;
console.log(
  `${count('SELECT count(*) FROM messages')} messages, ${count('SELECT count(*) FROM contacts')} contacts`,
);

const contacts = prepareContacts(db);
for (const prefix of ['a', 'an', 'mül', 'example', 'zzzz']) {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < Number(values.rounds); i++) {
    const t = performance.now();
    found = contacts.find(prefix, 8).length;
    times.push(performance.now() - t);
  }
  console.log(`find(${JSON.stringify(prefix)}): ${found} found, ms`, summary(times));
}

// A mailbox of real people names more of them than the generated corpus (its senders repeat): the scan that
// finds nothing, again with 10,000 more people in the table (added in a transaction that is rolled back).
db.exec('BEGIN');
try {
  const add = db.prepare<[string, string]>('INSERT INTO contacts (address, name, count) VALUES (?, ?, 1)');
  for (let i = 0; i < 10_000; i++) add.run(`person${i}@host${i % 97}.example`, `Person Nümber ${i}`);
  db.exec('UPDATE contacts_version SET version = version + 1'); // as the triggers do
  const t0 = performance.now();
  contacts.find('zzzz', 8);
  console.log(`the first find after a change reads and folds the table: ${round(performance.now() - t0)} ms`);
  const times: number[] = [];
  for (let i = 0; i < Number(values.rounds); i++) {
    const t = performance.now();
    contacts.find('zzzz', 8);
    times.push(performance.now() - t);
  }
  console.log(`find("zzzz") with ${count('SELECT count(*) FROM contacts')} contacts, ms`, summary(times));
} finally {
  db.exec('ROLLBACK');
}

const copy = `INSERT INTO messages (folder_id, thread_id, message_id, content_hash, in_reply_to, refs, subject, from_name,
    from_addr, from_text, to_json, cc_json, to_text, date, body_text, body_html, attachments_json, has_attachments,
    source, size)
  SELECT folder_id, thread_id, message_id, content_hash || '-copy', in_reply_to, refs, subject, from_name, from_addr,
    from_text, to_json, cc_json, to_text, date, body_text, body_html, attachments_json, has_attachments, source, size
  FROM messages ORDER BY id LIMIT 5000`;
function timedCopy(dropTrigger: boolean): number {
  db.exec('BEGIN');
  try {
    if (dropTrigger) db.exec('DROP TRIGGER contacts_insert');
    const t = performance.now();
    db.exec(copy);
    return performance.now() - t;
  } finally {
    db.exec('ROLLBACK');
  }
}
const withTrigger: number[] = [];
const without: number[] = [];
for (let i = 0; i < 5; i++) {
  withTrigger.push(timedCopy(false));
  without.push(timedCopy(true));
}
console.log(
  '5,000 messages stored, ms: with the contacts trigger',
  summary(withTrigger),
  'without',
  summary(without),
);
console.log(
  `per message, the trigger adds ${round((summary(withTrigger).median - summary(without).median) / 5000)} ms`,
);
db.close();
