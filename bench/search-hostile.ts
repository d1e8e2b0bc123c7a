import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { dbFileName } from '../electron/data-folder.ts';
import { openDatabase } from '../electron/db/open.ts';
import { prepareSearchThreads } from '../electron/mail/store/selection.ts';
import { appDataDir } from './corpus.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    mixed: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.count);
const small = !values.mixed;
const rounds = Number(values.rounds);

const letters = [...'abcdefghijklmnopqrstuvwxyz'];
const prefixes = [...letters, ...letters.flatMap((a) => [...'aeioulnrst'].map((b) => `${a}${b}`))].slice(
  0,
  120,
);
const hostile = `{${prefixes.map((p) => `${p}*`).join(' ')}}`;
// The expression the translator (search-sql.ts) made of it before the parser refused it.
const hostileFts = prefixes.map((p) => `("${p}" *)`).join(' OR ');
const costliest = '{th* re* co* al* me* a*}';
const normal = 'meeting';

const dataDir = appDataDir(count, small);
const db = openDatabase(`${dataDir}/${dbFileName}`);
const messages = db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

const ms = (t: number) => round(performance.now() - t);

// The main thread meanwhile: the event loop's longest delay, and the most CPU this thread used between two ticks
// of a 5 ms timer ("busy", as bench/main-stall.ts: on a shared 2-vCPU host a late tick is as often a thread
// waiting for a core; busy is the thread's own work).
function watchMain(): { stop(): { loopMs: number; busyMs: number } } {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let cpu = process.threadCpuUsage();
  let busy = 0;
  const timer = setInterval(() => {
    const used = process.threadCpuUsage(cpu);
    cpu = process.threadCpuUsage();
    busy = Math.max(busy, (used.user + used.system) / 1000);
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      return { loopMs: round(delay.max / 1e6), busyMs: round(busy) };
    },
  };
}
function timed<T>(run: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = run();
  return { ms: ms(t), value };
}

// Before: unbounded, on this thread.
const newestWalk = db.prepare<[string], { rowid: number }>(
  'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC',
);
const rankWalk = db.prepare<[string], { rowid: number }>(
  'SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank',
);
const everyMatch = db.prepare<[string, number], { id: number }>(
  `SELECT m.id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid & 2147483647
    WHERE messages_fts MATCH ? ORDER BY m.date DESC, m.id DESC LIMIT ?`,
);
const firstRows = (it: IterableIterator<unknown>, n: number) => {
  let read = 0;
  for (const _ of it) if (++read >= n) break;
  return read;
};
const before = {
  newest: timed(() => firstRows(newestWalk.iterate(hostileFts), 50)).ms,
  relevance: timed(() => firstRows(rankWalk.iterate(hostileFts), 1)).ms,
  selection: timed(() => everyMatch.all(hostileFts, 5_000_000).length).ms,
};
// What the bounds still take, resolved in process as mail:bulk did on the main connection.
const inProcessScope = prepareSearchThreads(db);
const costliestScopeHere: number[] = [];
for (let r = 0; r < rounds; r++) {
  costliestScopeHere.push(
    timed(() => {
      try {
        return inProcessScope(costliest).length;
      } catch (e) {
        return (e as Error).message;
      }
    }).ms,
  );
}

// After: the app as the desktop app runs it.
const app = createApp({ dataDir, mode: 'browser', background: true });
type Outcome = { ms: number; outcome: string };
const search = async (query: string, order: 'newest' | 'relevance'): Promise<Outcome> => {
  const t = performance.now();
  const r = await dispatch(app.handlers, 'mail:search', { query, limit: 50, order }, true);
  return { ms: ms(t), outcome: r.ok ? `${(r.value as unknown[]).length} hits` : r.error.code };
};
await search(normal, 'newest'); // the read thread starts with its first read: not counted

const after: Record<string, Record<string, Outcome[]>> = {};
const note = (query: string, order: string, o: Outcome) => {
  const byOrder = after[query] ?? {};
  byOrder[order] = [...(byOrder[order] ?? []), o];
  after[query] = byOrder;
};
const behind: Record<string, number[]> = { assistant: [], box: [] };
const searching = watchMain();
for (let r = 0; r < rounds; r++) {
  for (const q of [hostile, costliest, normal]) {
    for (const order of ['newest', 'relevance'] as const) note(q, order, await search(q, order));
  }
  // A normal search asked while the costliest by relevance runs (300 ms into it, past FTS5's prefix expansion):
  // the assistant's waits for it to end; the box's replaces it, which stops at its next check.
  for (const [who, ask] of [
    ['assistant', () => app.reads.search(normal, 50)],
    ['box', () => search(normal, 'newest')],
  ] as const) {
    const slow = search(costliest, 'relevance');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t = performance.now();
    await ask();
    behind[who]?.push(ms(t));
    await slow;
  }
}
const searchStall = searching.stop();

// The label picker over "all that match" the costliest scope, on the read thread; the main thread meanwhile.
const scope: Outcome[] = [];
const resolving = watchMain();
for (let r = 0; r < rounds; r++) {
  const t = performance.now();
  const reply = await dispatch(
    app.handlers,
    'mail:selectionLabels',
    { selection: { scope: { query: costliest } } },
    true,
  );
  scope.push({
    ms: ms(t),
    outcome: reply.ok ? `${(reply.value as { threads: number }).threads} threads` : reply.error.code,
  });
}
const scopeStall = resolving.stop();
const hostileScope = await dispatch(
  app.handlers,
  'mail:selectionLabels',
  { selection: { scope: { query: hostile } } },
  true,
);
await app.close();
db.close();

const median = (list: readonly number[]) => summary(list).median;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);
const outcomes = (list: readonly Outcome[] = []) =>
  `median ${median(list.map((o) => o.ms))} ms, max ${summary(list.map((o) => o.ms)).max} ms (${[...new Set(list.map((o) => o.outcome))].join(', ')})`;
console.log(`Database ${dataDir}: ${messages} messages; ${rounds} rounds.`);
console.log(
  `Before: the hostile query (${prefixes.length} prefixes, ${hostile.length} characters) unbounded, on one thread:`,
);
line('newest first, the first page of the walk', `${before.newest} ms`);
line('by relevance, FTS5 ORDER BY rank to its first row', `${before.relevance} ms`);
line('as a selection scope, every match (main connection)', `${before.selection} ms`);
console.log('After, mail:search through the bridge (the read thread):');
for (const q of [hostile, costliest, normal]) {
  const name = q === hostile ? 'hostile' : q === costliest ? costliest : normal;
  for (const order of ['newest', 'relevance'] as const)
    line(`${name}, ${order}`, outcomes(after[q]?.[order]));
}
line(
  'a normal search asked 300 ms into the costliest by relevance',
  `median ${median(behind.assistant ?? [])} ms`,
);
line("the box's next search then, replacing it", `median ${median(behind.box ?? [])} ms`);
line(
  'main thread during the searches: loop delay max / busy max',
  `${searchStall.loopMs} ms / ${searchStall.busyMs} ms`,
);
console.log('A selection over "all that match":');
line('the hostile scope (mail:selectionLabels)', hostileScope.ok ? 'answered' : hostileScope.error.code);
line(`${costliest} resolved in process (main thread held)`, `median ${median(costliestScopeHere)} ms`);
line(`${costliest}, mail:selectionLabels on the read thread`, outcomes(scope));
line('main thread meanwhile: loop delay max / busy max', `${scopeStall.loopMs} ms / ${scopeStall.busyMs} ms`);
console.log(
  JSON.stringify({
    bench: 'search-hostile',
    corpus: small ? 'small' : 'mixed',
    messages,
    rounds,
    before,
    after,
    behind,
    searchStall,
    costliestScopeHere,
    scope,
    scopeStall,
  }),
);
