// The views of the folder list (DESIGN §11) on the database bench/import.ts leaves behind, copied first so the
// copy can be rearranged: a quarter of the messages moved to an Archive, one in twenty to a Sent, one in a
// hundred starred. Each view's first page (limit 100, what the list asks first) and a page 5,000 threads deep,
// through prepareQueries().threads with its count, as mail:threads answers: median and p90 over the rounds.
// Comparison in the same run: Starred's first page as every other view asks it (each thread probed for a
// starred message, newest first, then a count), the way queries.ts chose not to.
//
//   node bench/views.ts [--count 20000] [--rounds 20]
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { prepareQueries } from '../electron/mail/store/queries.ts';
import type { MailView } from '../shared/contract/index.ts';
import { scratchCorpus } from './corpus.ts';
import { summary } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '20' } },
});
const { db, dir, localAccount } = scratchCorpus(Number(values.count), 'views');
const addFolder = db.prepare<[unknown, string, string]>(
  'INSERT INTO folders (account_id, name, source) VALUES (?, ?, ?)',
);
const archive = Number(addFolder.run(localAccount, 'Archive', 'skimmer:archive').lastInsertRowid);
const sent = Number(addFolder.run(localAccount, 'Sent', '/bench/Sent.mbox').lastInsertRowid);
db.prepare('UPDATE messages SET folder_id = ? WHERE id % 4 = 0').run(archive);
db.prepare('UPDATE messages SET folder_id = ? WHERE id % 20 = 1').run(sent);
db.prepare('UPDATE messages SET starred = 1 WHERE id % 100 = 2').run();

const queries = prepareQueries(db);
const views: MailView[] = ['inbox', 'starred', 'sent', 'archive', 'spam', 'trash', 'all'];
const messages = queries.messageCount();

function time(run: () => unknown): number {
  const t = performance.now();
  run();
  return performance.now() - t;
}

const probed = db.prepare<[string]>(
  `SELECT t.id FROM threads t
    WHERE t.message_count > 0
      AND EXISTS (SELECT 1 FROM messages m WHERE m.thread_id = t.id AND m.starred = 1
                    AND m.folder_id IN (SELECT value FROM json_each(?)))
    ORDER BY t.last_date DESC, t.id DESC LIMIT 100`,
);
const probedCount = db.prepare<[string]>(
  'SELECT count(DISTINCT thread_id) FROM messages WHERE starred = 1 AND folder_id IN (SELECT value FROM json_each(?))',
);
const results: Record<string, unknown> = {};

console.log(`${messages} messages, ${values.rounds} rounds`);
for (const view of views) {
  const first: number[] = [];
  const deep: number[] = [];
  let total = 0;
  for (let r = 0; r < Number(values.rounds); r++) {
    first.push(time(() => (total = queries.threads(null, 0, 100, view).total)));
    deep.push(time(() => queries.threads(null, 5000, 100, view)));
  }
  results[view] = { threads: total, firstMs: summary(first).median, deepMs: summary(deep).median };
  console.log(
    `${view.padEnd(8)} ${String(total).padStart(6)} threads  first page ${JSON.stringify(summary(first))} ms  ` +
      `at 5,000 ${JSON.stringify(summary(deep))} ms`,
  );
}
const notStarredPlaces = JSON.stringify(
  queries.folders().flatMap((f) => (f.place === 'trash' || f.place === 'spam' ? [] : [f.id])),
);
const compared: number[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  compared.push(
    time(() => {
      probed.all(notStarredPlaces);
      probedCount.get(notStarredPlaces);
    }),
  );
}
console.log(`starred, every thread probed: first page ${JSON.stringify(summary(compared))} ms`);
console.log(
  JSON.stringify({
    bench: 'views',
    node: process.version,
    messages,
    views: results,
    probedStarredMs: summary(compared).median,
  }),
);
db.close();
rmSync(dir, { recursive: true, force: true });
