// Search latency on the database bench/import.ts leaves behind: 100 queries cycling 20 expressions
// (terms, phrases, AND/OR/NOT, prefix, column filters, NEAR, Cyrillic, Polish, diacritic folding) through
// prepareSearch (ranked, joined, with snippets) at limit 50. Comparison in the same process: the same
// expressions as an unranked `SELECT rowid … MATCH ? LIMIT 50`, the floor FTS5 itself sets.
//
//   node bench/search.ts [--count 20000] [--rounds 5]
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { prepareSearch } from '../electron/mail/store/search.ts';
import { ensureDatabase } from './corpus.ts';
import { round, summary } from './stats.ts';

const expressions = [
  'invoice',
  'meeting',
  '"quarterly report"',
  'budget AND deadline',
  'refund OR receipt',
  'project NOT cancelled',
  'conf*',
  'subject:invoice',
  'from:anna',
  'NEAR(budget meeting, 5)',
  'Привет',
  'счёт',
  'Zażółć gęślą jaźń',
  'spotkanie',
  'müller',
  'muller',
  '"conference call" OR webinar',
  'shipment tracking number',
  'security AND (password OR login)',
  'rechnung',
];

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } },
});
const dbFile = ensureDatabase(Number(values.count));
const db = openDatabase(dbFile);
const messages = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
const search = prepareSearch(db);
const unranked = db.prepare<[string], { rowid: number }>(
  'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT 50',
);
const matches = db.prepare<[string], { n: number }>(
  'SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?',
);

function time(run: () => unknown): number {
  const t = performance.now();
  run();
  return performance.now() - t;
}

// The first pass runs on a cold page cache and cold statements; it is reported, not mixed in.
const cold = expressions.map((q) => time(() => search(q, 50)));
const ranked: number[] = [];
const plain: number[] = [];
const perExpression = new Map<string, { ranked: number[]; unranked: number[] }>(
  expressions.map((q) => [q, { ranked: [], unranked: [] }]),
);
for (let r = 0; r < Number(values.rounds); r++) {
  for (const q of expressions) {
    const ms = time(() => search(q, 50));
    ranked.push(ms);
    perExpression.get(q)?.ranked.push(ms);
  }
}
for (let r = 0; r < Number(values.rounds); r++) {
  for (const q of expressions) {
    const ms = time(() => unranked.all(q));
    plain.push(ms);
    perExpression.get(q)?.unranked.push(ms);
  }
}

const rankedSummary = summary(ranked);
const plainSummary = summary(plain);
console.log(
  `Database ${dbFile}: ${messages} messages. ${ranked.length} queries over ${expressions.length} expressions, limit 50.`,
);
console.log(
  `prepareSearch (ranked, snippet): median ${rankedSummary.median} ms, p90 ${rankedSummary.p90} ms, p99 ${rankedSummary.p99} ms, max ${rankedSummary.max} ms; cold first pass max ${round(Math.max(...cold))} ms`,
);
console.log(
  `unranked rowid MATCH … LIMIT 50:  median ${plainSummary.median} ms, p90 ${plainSummary.p90} ms, p99 ${plainSummary.p99} ms, max ${plainSummary.max} ms`,
);
console.log('\nper expression            matches   ranked median   unranked median');
const rows = expressions.map((q) => {
  const e = perExpression.get(q) as { ranked: number[]; unranked: number[] };
  const row = {
    query: q,
    matches: (matches.get(q) as { n: number }).n,
    rankedMedianMs: summary(e.ranked).median,
    unrankedMedianMs: summary(e.unranked).median,
  };
  console.log(
    `  ${q.padEnd(34)} ${String(row.matches).padStart(6)}   ${String(row.rankedMedianMs).padStart(8)} ms   ${String(row.unrankedMedianMs).padStart(8)} ms`,
  );
  return row;
});
db.close();

console.log(
  JSON.stringify({
    bench: 'search',
    messages,
    queries: ranked.length,
    limit: 50,
    ranked: rankedSummary,
    rankedColdMaxMs: round(Math.max(...cold)),
    unranked: plainSummary,
    perExpression: rows,
  }),
);
