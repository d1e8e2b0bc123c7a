// Search latency at the size of a real mailbox (issue 18). The corpus is the everyday one unless --mixed
// (generate-mailbox.ts --small: most messages say "thanks" and "meeting"), imported by bench/import.ts.
// Every expression runs, limit 50, newest first:
// - in process: prepareSearch, the function the bridge handler calls;
// - through the bridge: `mail:search` through dispatch() (schema check, handler, the envelope serialized
//   as the WebSocket sends it) of an app built by createApp over a copy of the database, as the app runs it
//   (the search on its own thread, reads/read-thread.ts);
//   and the same with `order: 'relevance'` (bm25 over every match: the price of that choice);
// - as whole processes, a few rounds each: `skimmer search`, `mu find` and `notmuch search` on the same mail
//   as a Maildir (the last two when installed; mail-indexers.ts), with the expression in each one's syntax.
// The floor FTS5 itself sets: the word expressions as an unranked `SELECT rowid … MATCH ? LIMIT 50`.
//
//   node bench/search.ts [--count 20000] [--mixed] [--rounds 5] [--process-rounds 3]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { dbFileName } from '../electron/data-folder.ts';
import { openDatabase } from '../electron/db/open.ts';
import { prepareMessageSearch, prepareSearch } from '../electron/mail/store/search.ts';
import { appDataDir, benchDir } from './corpus.ts';
import { type Indexer, prepareMu, prepareNotmuch } from './mail-indexers.ts';
import { round, summary } from './stats.ts';

// Skimmer's expression, then mu's and notmuch's for the same question (null: that tool has no form of it).
// The Maildir's files are all marked seen and Skimmer imports them unread, so mu's `flag:seen` and
// notmuch's `tag:unread` (which `notmuch new` gives every message) select all the mail, as is:unread does.
const compared: readonly (readonly [string, string | null, string | null])[] = [
  ['meeting', 'meeting', 'meeting'],
  ['thanks', 'thanks', 'thanks'],
  ['meeting thanks', 'meeting AND thanks', 'meeting AND thanks'],
  ['invoice', 'invoice', 'invoice'],
  ['"quarterly report"', '"quarterly report"', '"quarterly report"'],
  ['budget AND deadline', 'budget AND deadline', 'budget AND deadline'],
  ['refund OR receipt', 'refund OR receipt', 'refund OR receipt'],
  ['project NOT cancelled', 'project AND NOT cancelled', 'project AND NOT cancelled'],
  ['conf*', 'conf*', 'conf*'],
  ['subject:invoice', 'subject:invoice', 'subject:invoice'],
  ['from:anna', 'from:anna', 'from:anna'],
  ['müller', 'müller', 'müller'],
  ['Привет', 'Привет', 'Привет'],
  ['is:unread', 'flag:seen', 'tag:unread'],
  ['is:unread meeting', 'flag:seen AND meeting', 'tag:unread AND meeting'],
  ['has:attachment', 'flag:attach', 'tag:attachment'],
  ['after:2023-06-01 before:2023-07-01', 'date:2023-06-01..2023-06-30', 'date:2023-06-01..2023-06-30'],
  ['NOT invoice', 'NOT invoice', 'NOT invoice'],
];

// Skimmer only: forms the others lack or spell too differently to compare one for one.
const skimmerOnly = [
  'NEAR(budget meeting, 5)',
  'счёт',
  'Zażółć gęślą jaźń',
  'muller',
  '"conference call" OR webinar',
  'shipment tracking number',
  'security AND (password OR login)',
  'older_than:1y budget',
  'cc:anna',
  'from:anna OR from:jan report',
  'in:anywhere conf* -is:read',
];

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    mixed: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    'process-rounds': { type: 'string', default: '3' },
  },
});
const count = Number(values.count);
const small = !values.mixed;
const rounds = Number(values.rounds);
const processRounds = Number(values['process-rounds']);
const dataDir = appDataDir(count, small);
const db = openDatabase(`${dataDir}/${dbFileName}`);
const messages = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
const search = prepareSearch(db);
const messageSearch = prepareMessageSearch(db);
const unranked = db.prepare<[string], { rowid: number }>(
  'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT 50',
);
// As the desktop app and `serve` run: background, so mail:search is answered by the search thread.
const app = createApp({ dataDir, mode: 'browser', background: true });
const bridged = async (query: string, order: 'newest' | 'relevance' = 'newest') => {
  const envelope = await dispatch(app.handlers, 'mail:search', { query, limit: 50, order }, true);
  if (!envelope.ok) throw new Error(`${query}: ${envelope.error.message}`);
  return JSON.stringify(envelope).length;
};

const expressions = [...compared.map(([q]) => q), ...skimmerOnly];
const time = (run: () => unknown) => {
  const t = performance.now();
  run();
  return performance.now() - t;
};
const timeAsync = async (run: () => Promise<unknown>) => {
  const t = performance.now();
  await run();
  return performance.now() - t;
};

// The first pass runs on a cold page cache and cold statements; it is reported, not mixed in.
const cold = expressions.map((q) => time(() => search(q, 50)));
await bridged('meeting'); // the search thread starts with its first search: not counted
const inProcess = new Map<string, number[]>(expressions.map((q) => [q, []]));
const viaBridge = new Map<string, number[]>(expressions.map((q) => [q, []]));
const byRelevance = new Map<string, number[]>(expressions.map((q) => [q, []]));
const floor: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const q of expressions) inProcess.get(q)?.push(time(() => search(q, 50)));
  for (const q of expressions) viaBridge.get(q)?.push(await timeAsync(() => bridged(q)));
  for (const q of expressions) byRelevance.get(q)?.push(await timeAsync(() => bridged(q, 'relevance')));
  for (const q of expressions.slice(0, 13)) floor.push(time(() => unranked.all(q)));
}
await app.close();

// Whole processes: Skimmer's command line against the same data folder, then mu and notmuch.
const skimmerCli: Indexer = {
  name: 'skimmer search',
  version: 'this checkout',
  search(query, limit) {
    const r = spawnSync(
      process.execPath,
      [`${benchDir}../bin/skimmer.mjs`, 'search', '--data', dataDir, '--limit', String(limit), '--', query],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`skimmer search ${query}: ${r.stderr}`);
    return r.stdout.split('\n').length;
  },
};
const tools: { tool: Indexer; column: 0 | 1 | 2 }[] = [{ tool: skimmerCli, column: 0 }];
for (const [prepare, column] of [
  [prepareMu, 1],
  [prepareNotmuch, 2],
] as const) {
  const tool = await prepare(count, small);
  if (tool) tools.push({ tool, column });
  else console.log(`${prepare === prepareMu ? 'mu' : 'notmuch'} is not installed: skipped.`);
}
const perProcess = new Map<string, Map<string, number[]>>(tools.map(({ tool }) => [tool.name, new Map()]));
for (const { tool, column } of tools) {
  const times = perProcess.get(tool.name) as Map<string, number[]>;
  for (const row of compared) {
    const q = row[column];
    if (q === null) continue;
    tool.search(q, 50); // warm the page cache, as for Skimmer's cold pass
    const list: number[] = [];
    for (let r = 0; r < processRounds; r++) list.push(time(() => tool.search(q, 50)));
    times.set(row[0], list);
  }
}

const all = (m: Map<string, number[]>) => [...m.values()].flat();
const overall: Record<string, ReturnType<typeof summary>> = {
  inProcess: summary(all(inProcess)),
  bridge: summary(all(viaBridge)),
  relevance: summary(all(byRelevance)),
  ...Object.fromEntries(
    tools.map(({ tool }) => [tool.name, summary(all(perProcess.get(tool.name) ?? new Map()))]),
  ),
};
console.log(
  `Database ${dataDir}: ${messages} messages; ${expressions.length} expressions × ${rounds} rounds, limit 50, newest first.`,
);
const line = (name: string, s: ReturnType<typeof summary>) =>
  console.log(`  ${name.padEnd(34)} p50 ${s.median} ms, p90 ${s.p90} ms, p99 ${s.p99} ms, max ${s.max} ms`);
line('prepareSearch, in process', overall.inProcess ?? summary([]));
line('mail:search, bridge + search thread', overall.bridge ?? summary([]));
line('the same, order: relevance', overall.relevance ?? summary([]));
line('unranked rowid MATCH … LIMIT 50', summary(floor));
console.log(`  cold first pass, in process: max ${round(Math.max(...cold))} ms`);
console.log(`Whole processes, ${processRounds} rounds of the ${compared.length} compared expressions:`);
for (const { tool } of tools) line(`${tool.name} (${tool.version})`, overall[tool.name] ?? summary([]));

const median = (list: number[] | undefined) => (list && list.length > 0 ? summary(list).median : null);
const cell = (v: number | null | string) => String(v ?? '—').padStart(9);
console.log(
  `\n  ${'expression'.padEnd(36)} ${'matches'.padStart(7)} ${cell('in proc')} ${cell('bridge')} ${cell('relevance')} ${tools.map(({ tool }) => cell(tool.name.split(' ')[0] as string)).join(' ')}   (medians, ms)`,
);
const rows = expressions.map((q) => {
  const row = {
    query: q,
    matches: messageSearch(q, Number.MAX_SAFE_INTEGER).length,
    inProcessMs: median(inProcess.get(q)),
    bridgeMs: median(viaBridge.get(q)),
    relevanceMs: median(byRelevance.get(q)),
    processMs: Object.fromEntries(
      tools.map(({ tool }) => [tool.name, median(perProcess.get(tool.name)?.get(q))]),
    ),
  };
  console.log(
    `  ${q.padEnd(36)} ${String(row.matches).padStart(7)} ${cell(row.inProcessMs)} ${cell(row.bridgeMs)} ${cell(row.relevanceMs)} ${tools.map(({ tool }) => cell(row.processMs[tool.name] ?? null)).join(' ')}`,
  );
  return row;
});
db.close();

console.log(
  JSON.stringify({
    bench: 'search',
    corpus: small ? 'small' : 'mixed',
    messages,
    rounds,
    limit: 50,
    overall,
    rows,
  }),
);
