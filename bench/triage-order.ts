// The thread list ordered by a triage answer over the whole mailbox (issue 17, DESIGN §9) on the database
// bench/import.ts leaves behind, copied first: every message answered (the five starter questions, figures
// from a seeded generator, one in fifty refused), a quarter of the messages moved to an Archive. Timed through
// prepareOrderedThreads().page as judge:orderedThreads answers it (a page of 100 with its total and chips):
// All mail and the Inbox sorted by urgency, first page and 5,000 conversations deep, filtered by a choice, by
// a predicate's yes, and both at once; median and p90 over the rounds, for the first request (the ordering is
// computed) and the next page (the kept ordering is sliced). Comparison in the same run: the first request
// with migration 0031's two indexes dropped.
//
//   node bench/triage-order.ts [--count 20000] [--rounds 10]
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type OrderRequest, prepareOrderedThreads } from '../electron/ai/triage/ordered-threads.ts';
import { scratchCorpus } from './corpus.ts';
import { answerEveryMessage } from './seed-answers.ts';
import { summary } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '10' } },
});
const rounds = Number(values.rounds);
const { db, dir, localAccount } = scratchCorpus(Number(values.count), 'triage-order');
const archive = Number(
  db
    .prepare('INSERT INTO folders (account_id, name, source) VALUES (?, ?, ?)')
    .run(localAccount, 'Archive', 'skimmer:archive').lastInsertRowid,
);
db.prepare('UPDATE messages SET folder_id = ? WHERE id % 4 = 0').run(archive);

const { setId, answered: messages } = answerEveryMessage(db);
// As the app's database normally is: its WAL copied back (autocheckpoint at 1,000 pages), statistics read.
db.pragma('wal_checkpoint(TRUNCATE)');
db.exec('ANALYZE');

const base: OrderRequest = {
  setId,
  folderId: null,
  view: 'all',
  sortBy: 'urgency',
  filter: null,
  offset: 0,
  limit: 100,
};
const cases: [string, Partial<OrderRequest>][] = [
  ['all, by urgency', {}],
  ['all, by urgency, 5,000 deep', { offset: 5000 }],
  ['inbox, by urgency', { view: 'inbox' }],
  ['all, category newsletter', { sortBy: null, filter: { question: 'category', value: 'newsletter' } }],
  ['all, needs_reply yes', { sortBy: null, filter: { question: 'needs_reply', value: null } }],
  ['all, by urgency, category work', { filter: { question: 'category', value: 'work' } }],
];

function time(run: () => unknown): number {
  const t = performance.now();
  run();
  return performance.now() - t;
}
// Cold: a fresh instance keeps no ordering, as after any change to the database. Warm: the next page of the
// same ordering, what scrolling asks.
function measure(over: Partial<OrderRequest>) {
  const cold: number[] = [];
  const warm: number[] = [];
  let total = 0;
  for (let r = 0; r < rounds; r++) {
    const order = prepareOrderedThreads(db);
    cold.push(time(() => (total = order.page({ ...base, ...over }).total)));
    warm.push(time(() => order.page({ ...base, ...over, offset: (over.offset ?? 0) + 100 })));
  }
  return { total, cold: summary(cold), warm: summary(warm) };
}

console.log(`${messages} messages, every one answered, ${rounds} rounds`);
const results: Record<string, unknown> = {};
for (const [name, over] of cases) {
  const { total, cold, warm } = measure(over);
  results[name] = { threads: total, coldMs: cold.median, coldP90Ms: cold.p90, nextPageMs: warm.median };
  console.log(
    `${name.padEnd(30)} ${String(total).padStart(6)} threads  ${JSON.stringify(cold)} ms, next page ${JSON.stringify(warm)} ms`,
  );
}
db.exec('DROP INDEX judge_answers_by_question; DROP INDEX messages_by_content; ANALYZE');
const slow: number[] = [];
for (let r = 0; r < Math.min(rounds, 3); r++) {
  const without = prepareOrderedThreads(db);
  slow.push(time(() => without.page(base)));
}
console.log(`all, by urgency, without 0031's indexes  ${JSON.stringify(summary(slow))} ms`);
console.log(
  JSON.stringify({
    bench: 'triage-order',
    node: process.version,
    messages,
    cases: results,
    withoutIndexesMs: summary(slow).median,
  }),
);
db.close();
rmSync(dir, { recursive: true, force: true });
