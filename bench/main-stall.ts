// The main thread's longest stall (issue 18: "the Electron main process is never blocked by SQL"), on a copy of
// the corpus database in an app data folder, with the app built by createApp as the desktop app runs it
// (background: the read thread answers the slow reads). Three scenes:
//   (a) a big query: searches of words in most messages (newest first, and by relevance, which reads every
//       match), a page of All mail with its count, the thread with most messages, and the list ordered by a
//       triage answer (every message answered, bench/seed-answers.ts), each through the bridge's dispatch;
//   (a') the triage dialog over All mail: the estimate, the rules' card and a job's start (triage:estimate,
//       triage:suggest, triage:start);
//   (b) a triage job (the app's, over the newest --triage messages, on the triage thread) against
//       fixtures/judge/decision-server.ts on a thread of its own, alone and with the big query asked meanwhile,
//       beside the same job worked on the main thread (as before the triage thread);
//   (c) a first IMAP sync from a real Dovecot (test/support/dovecot.ts, each run a user of its own seeded with
//       its own --sync messages of the corpus) into the app's database by `startSyncJob` in its worker, as
//       bench/imap-sync.ts runs it, with the big query asked meanwhile;
//   (d) a write on the main thread every 100 ms during an import of the corpus into a database of its own: how
//       long each waits for the write lock, with the import giving way (db/write-turn.ts) and without.
// The stall is the worst of monitorEventLoopDelay (resolution 2 ms) and the lateness of a 5 ms timer. On a
// shared 2-vCPU machine a thread also waits for a core, so the main thread's own CPU time between two ticks of
// the timer is printed too ("busy"): what it spent on work, the part the read thread can take away. Comparison
// in the same run: the same reads answered in process on the main thread (prepareReads(db) directly), the job
// worked on the main thread, and (b) and (c) alone, with no reads, to tell the job's own stalls from the reads'.
//
//   node bench/main-stall.ts [--count 20000] [--small] [--rounds 5] [--triage 1500] [--sync 6000]
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { prepareQuestionSets, starterQuestions } from '../electron/ai/triage/question-sets.ts';
import type { Rule } from '../electron/ai/triage/rules.ts';
import { prepareTriageJobs } from '../electron/ai/triage/triage-jobs.ts';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { dbFileName } from '../electron/data-folder.ts';
import { openDatabase } from '../electron/db/open.ts';
import { announceWrites, createWriteTurn } from '../electron/db/write-turn.ts';
import { userPlaces } from '../electron/files/safe-open.ts';
import { startSyncJob } from '../electron/mail/imap/sync-job.ts';
import { startImportJob } from '../electron/mail/import/import-job.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { prepareReads } from '../electron/reads/reads.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { ensureCorpus, ensureDatabase } from './corpus.ts';
import { startDecisionServerThread } from './decision-server-thread.ts';
import { answerEveryMessage } from './seed-answers.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    small: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    triage: { type: 'string', default: '1500' },
    sync: { type: 'string' },
  },
});
const count = Number(values.count);
const small = values.small;
const rounds = Number(values.rounds);
const triageMessages = Number(values.triage);
// Each of the three syncs takes its own slice of the corpus, so three together are at most all of it.
const syncMessages = Math.min(Number(values.sync ?? 6000), Math.floor(count / 3));

type Stall = {
  /** The longest the main thread ran between two ticks of the 5 ms timer: its own work, whatever the machine's load. */
  busyMs: number;
  maxMs: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  timerLateMs: number;
  gcMaxMs: number;
};

/** Watches the main thread until stop(): the event loop's delay, how late a 5 ms timer ever was, GC pauses. */
function watchStalls(): { stop(): Stall } {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let late = 0;
  // A tick is late because this thread was busy, or because the machine gave it no core (2 shared vCPUs): the
  // CPU this thread used between two ticks tells the first from the second.
  let cpu = process.threadCpuUsage();
  let busy = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const used = process.threadCpuUsage(cpu);
    cpu = process.threadCpuUsage();
    late = Math.max(late, now - last - 5);
    busy = Math.max(busy, (used.user + used.system) / 1000);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      gc.disconnect();
      const loopMax = delay.max / 1e6;
      return {
        busyMs: round(busy),
        maxMs: round(Math.max(loopMax, late)),
        loopDelayMaxMs: round(loopMax),
        loopDelayP99Ms: round(delay.percentile(99) / 1e6),
        timerLateMs: round(late),
        gcMaxMs: round(gcMax),
      };
    },
  };
}

// The app's data folder: a copy of the corpus database (its WAL copied back first), every message answered.
const dataDir = mkdtempSync(join(tmpdir(), 'skimmer-bench-main-stall-'));
try {
  const source = ensureDatabase(count, small);
  const d = openDatabase(source);
  d.pragma('wal_checkpoint(TRUNCATE)');
  d.close();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  copyFileSync(source, join(dataDir, dbFileName));
  const seed = openDatabase(join(dataDir, dbFileName));
  const { setId, answered } = answerEveryMessage(seed);
  seed.pragma('wal_checkpoint(TRUNCATE)');
  seed.close();

  // As the desktop app and `serve` run: background, so the slow reads go to the read thread.
  const app = createApp({ dataDir, mode: 'browser', background: true });
  const here = prepareReads(app.db);
  const biggest = app.db
    .prepare('SELECT id, message_count FROM threads ORDER BY message_count DESC, id LIMIT 1')
    .get() as { id: number; message_count: number };
  const words = small ? ['meeting', 'thanks'] : ['the', 'and'];
  const matches = words.map(
    (w) =>
      app.db.prepare('SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?').pluck().get(w) as number,
  );
  const ordered = {
    setId,
    folderId: null,
    view: 'all',
    sortBy: 'urgency',
    filter: null,
    offset: 0,
    limit: 100,
  } as const;
  console.log(
    `${answered} messages (${small ? 'everyday corpus' : 'bench corpus'}); ${words
      .map((w, i) => `"${w}" in ${matches[i]}`)
      .join(', ')}; the biggest thread has ${biggest.message_count} messages`,
  );

  // One big query, as the page asks it: each request after the last, a turn of the event loop between them.
  const requests: [string, unknown][] = [
    ...words.map((query) => ['mail:search', { query, limit: 50 }] as [string, unknown]),
    ['mail:search', { query: words[0], limit: 50, order: 'relevance' }],
    ['mail:threads', { folderId: null, view: 'all', offset: 0, limit: 100 }],
    ['mail:thread', { threadId: biggest.id }],
    ['judge:orderedThreads', ordered],
  ];
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const viaThread = async () => {
    for (const [channel, request] of requests) {
      const envelope = await dispatch(app.handlers, channel, request, true);
      if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
      await nextTurn();
    }
  };
  // The longest each read held the main thread when it ran there, by read.
  const longest = new Map<string, number>();
  const timed = async (name: string, read: () => unknown) => {
    const t = performance.now();
    read();
    longest.set(name, Math.max(longest.get(name) ?? 0, performance.now() - t));
    await nextTurn();
  };
  const inProcess = async () => {
    for (const query of words) await timed(`search ${query}`, () => here.search(query, 50, 'newest'));
    await timed(`search ${words[0]} by relevance`, () => here.search(words[0] as string, 50, 'relevance'));
    await timed('threads of All mail', () => here.threads(null, 0, 100, 'all'));
    await timed('the biggest thread', () => here.thread(biggest.id));
    await timed('ordered by urgency', () => here.orderedThreads(ordered));
  };
  // In process: the read that held the main thread longest, and for how long.
  const slowest = (way: string | null) => {
    if (way !== 'inProcess' || longest.size === 0) return {};
    const [name, ms] = [...longest].sort((a, b) => b[1] - a[1])[0] as [string, number];
    return { slowestRead: name, slowestReadMs: round(ms) };
  };
  const ways = { readThread: viaThread, inProcess } as const;

  // Both ways once, unmeasured: the read thread starts, statements are prepared, the ordering is made.
  await viaThread();
  await inProcess();

  // (a) The big query alone.
  const bigQuery: Record<string, Stall & { seconds: number }> = {};
  for (const [way, run] of Object.entries(ways)) {
    longest.clear();
    const watch = watchStalls();
    const t = performance.now();
    for (let r = 0; r < rounds; r++) await run();
    bigQuery[way] = { ...watch.stop(), seconds: round((performance.now() - t) / 1000), ...slowest(way) };
  }

  // (a') The triage dialog over All mail: the estimate (every message's length) and the rules' card (every
  // message's answers), asked once each way.
  const scope = { kind: 'all' } as const;
  const rules: Rule[] = [
    { question: 'category', when: { op: 'is', value: 'newsletter' }, action: { kind: 'archive' } },
  ];
  const dialog: Record<string, Stall & { seconds: number }> = {};
  for (const way of ['readThread', 'inProcess'] as const) {
    longest.clear();
    const watch = watchStalls();
    const t = performance.now();
    if (way === 'readThread') {
      for (const [channel, request] of [
        ['triage:estimate', { setId, scope }],
        ['triage:suggest', { setId, scope, rules }],
        // A job over All mail (its items written here, its messages read there); a service of no name, so
        // it ends at once without asking anyone.
        ['triage:start', { setId, scope, model: 'nobody/none' }],
      ] as const) {
        const envelope = await dispatch(app.handlers, channel, request, true);
        if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
        await nextTurn();
      }
    } else {
      await timed('triage estimate', () => here.scopeMeasure(setId, scope));
      await timed('rules card', () => here.ruleSuggestions(setId, scope, rules));
      await timed('a job over All mail', () => app.triageJobs.create(setId, 'nobody/none', scope));
    }
    dialog[way] = { ...watch.stop(), seconds: round((performance.now() - t) / 1000), ...slowest(way) };
  }

  // Asks the big query over and over until `done` settles; the stall of the whole time.
  async function during(done: Promise<unknown>, way: keyof typeof ways | null) {
    let over = false;
    void done.finally(() => {
      over = true;
    });
    longest.clear();
    const watch = watchStalls();
    const t = performance.now();
    let asked = 0;
    while (!over) {
      if (way) {
        await ways[way]();
        asked++;
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await done;
    return {
      ...watch.stop(),
      seconds: round((performance.now() - t) / 1000),
      bigQueries: asked,
      ...slowest(way),
    };
  }

  // (b) A triage job over the newest messages: on the triage thread as the app works it, alone and with the big
  // query asked meanwhile, and worked on this thread as before (prepareTriageJobs without the thread). The
  // decision server answers from a thread of its own, so its work is not counted as the app's.
  const triage: Record<string, unknown> = {};
  const server = await startDecisionServerThread({ rpm: 60_000, latencyMs: [5, 20], rateLimitHeaders: true });
  await app.services.add({ name: 'bench', kind: 'decisions', baseUrl: server.base });
  const set = prepareQuestionSets(app.db).save({ name: 'Stall', questions: starterQuestions });
  const newest = app.db
    .prepare('SELECT id FROM messages ORDER BY id DESC LIMIT ?')
    .pluck()
    .all(triageMessages) as number[];
  const jobsHere = prepareTriageJobs({ db: app.db, services: app.services });
  // A first job of a few messages each way, unmeasured: the first request loads what every first fetch loads.
  for (const jobs of [app.triageJobs, jobsHere])
    await jobs.run(jobs.createForNewMail(set.id, 'bench/jev-warm', newest.slice(0, 20)).id);
  const triageRuns = [
    { name: 'alone', jobs: app.triageJobs, way: null },
    { name: 'readThread', jobs: app.triageJobs, way: 'readThread' },
    { name: 'here', jobs: jobsHere, way: null },
  ] as const;
  for (const { name, jobs, way } of triageRuns) {
    // Each run asks its own model name, so no answer comes from the cache of the one before.
    const job = jobs.createForNewMail(set.id, `bench/jev-${name}`, newest);
    triage[name] = await during(jobs.run(job.id), way);
  }
  await server.close();

  // (c) A first sync of a real Dovecot's INBOX into the app's database, each time as a new account.
  const sync: Record<string, unknown> = {};
  // One user per run, each with its own slice of the corpus: a message already synced for another account is
  // linked, not stored again, so every run is a first sync of mail the database does not have from IMAP.
  const runs = [null, 'readThread', 'inProcess'] as const;
  const users = runs.map((w) => ({ user: `${(w ?? 'alone').toLowerCase()}@example.com`, pass: 'secret' }));
  const dovecot = await startDovecot({ users });
  try {
    const raws: Buffer[] = [];
    for await (const m of splitMbox(createReadStream(ensureCorpus(count, small).mbox))) {
      if (raws.length === syncMessages * runs.length) break;
      raws.push(m.raw);
    }
    users.forEach((u, i) => {
      dovecot.seedMaildir(u.user, 'INBOX', raws.slice(i * syncMessages, (i + 1) * syncMessages));
    });
    raws.length = 0;
    for (const [i, way] of runs.entries()) {
      // Dovecot builds its index on first access; no measured run pays for that.
      const warm = await dovecot.client(users[i]?.user);
      await warm.mailboxOpen('INBOX', { readOnly: true });
      await warm.fetchAll('1:*', { uid: true });
      await warm.logout();
      const accountId = Number(
        app.db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', ?)").run(`bench-${way}`)
          .lastInsertRowid,
      );
      const login = {
        ...loginFor(dovecot, accountId, 'bench'),
        user: users[i]?.user as string,
        password: 'secret',
      };
      const synced = new Promise<number>((resolve, reject) => {
        const job = startSyncJob(join(dataDir, dbFileName), login, (m) => {
          if (m.type === 'synced') void job.stop().then(() => resolve(m.summary.added));
          if (m.type === 'failed') void job.stop().then(() => reject(new Error(m.message)));
        });
      });
      sync[way ?? 'alone'] = { ...(await during(synced, way)), added: await synced };
    }
  } finally {
    await dovecot.stop();
  }
  await app.close();

  // (d) A write on the main thread during an import (into a database of its own): how long each waits for the
  // write lock, with the import giving way to the main connection (db/write-turn.ts, as the app runs it) and
  // without, one write every 100 ms, as a user opening messages (each marks one read) would.
  const writes: Record<string, unknown> = {};
  for (const way of ['without', 'withTurn', 'without', 'withTurn'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'skimmer-bench-write-turn-'));
    try {
      const file = join(dir, dbFileName);
      const db = openDatabase(file);
      // As the app's main connection: the read thread checkpoints, not this one's commits.
      db.pragma('wal_autocheckpoint = 0');
      const turn = way === 'withTurn' ? createWriteTurn() : undefined;
      if (turn) announceWrites(db, turn);
      db.exec('CREATE TABLE bench_writes (at REAL NOT NULL)');
      const write = db.prepare<[number]>('INSERT INTO bench_writes (at) VALUES (?)');
      let over = false;
      const t = performance.now();
      const job = startImportJob(
        file,
        [ensureCorpus(count, small).mbox],
        userPlaces({ dataDir: dir, extraRoots: [join(import.meta.dirname, 'out')] }),
        (e) => {
          if (e.type === 'import_done' || e.type === 'error') over = true;
        },
        turn ? { turn } : {},
      );
      const waits: number[] = [];
      while (!over) {
        const w = performance.now();
        write.run(w);
        waits.push(performance.now() - w);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await job.done;
      const seconds = round((performance.now() - t) / 1000);
      db.close();
      waits.sort((a, b) => a - b);
      const at = (q: number) => round(waits[Math.floor(q * (waits.length - 1))] ?? 0);
      const runs = (writes[way] as object[] | undefined) ?? [];
      runs.push({
        writes: waits.length,
        p50: at(0.5),
        p90: at(0.9),
        p99: at(0.99),
        max: at(1),
        importSeconds: seconds,
      });
      writes[way] = runs;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  type Shown = Stall & { seconds: number; bigQueries?: number; slowestRead?: string; slowestReadMs?: number };
  const line = (name: string, s: Shown) =>
    console.log(
      `  ${name.padEnd(36)} busy at most ${String(s.busyMs).padStart(6)} ms at a time; longest stall ${String(s.maxMs).padStart(6)} ms (event-loop delay max ${s.loopDelayMaxMs} ms, p99 ${s.loopDelayP99Ms} ms; 5 ms timer ${s.timerLateMs} ms late; GC pause max ${s.gcMaxMs} ms) over ${s.seconds} s${s.bigQueries === undefined ? '' : `, ${s.bigQueries} big queries`}${s.slowestRead ? `; slowest read ${s.slowestRead} ${s.slowestReadMs} ms` : ''}`,
    );
  console.log(`(a) a big query (${requests.map(([c]) => c).join(', ')}), ${rounds} rounds:`);
  line('reads on the read thread', bigQuery.readThread as Shown);
  line('the same reads in process', bigQuery.inProcess as Shown);
  console.log("(a') the triage dialog over All mail (triage:estimate, triage:suggest, triage:start):");
  line('reads on the read thread', dialog.readThread as Shown);
  line('the same reads in process', dialog.inProcess as Shown);
  console.log(`(b) a triage job over ${newest.length} messages, 5 questions each:`);
  line('on the triage thread, alone', triage.alone as Shown);
  line('there, with big queries (read thread)', triage.readThread as Shown);
  line('worked on this thread, alone (before)', triage.here as Shown);
  console.log(`(c) a first IMAP sync of ${syncMessages} messages from Dovecot:`);
  line('the sync alone', sync.alone as Shown);
  line('with big queries on the read thread', sync.readThread as Shown);
  line('with the same reads in process', sync.inProcess as Shown);
  console.log(
    `(d) a write on the main thread every 100 ms during an import of ${count} messages (ms waited):`,
  );
  for (const [way, runs] of Object.entries(writes))
    for (const r of runs as {
      writes: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
      importSeconds: number;
    }[])
      console.log(
        `  ${(way === 'withTurn' ? 'the import giving way (the app)' : 'the import not giving way').padEnd(36)} p50 ${r.p50}, p90 ${r.p90}, p99 ${r.p99}, max ${r.max} over ${r.writes} writes; the import took ${r.importSeconds} s`,
      );
  console.log(
    JSON.stringify({
      bench: 'main-stall',
      node: process.version,
      messages: answered,
      corpus: small ? 'small' : 'bench',
      biggestThread: biggest.message_count,
      bigQuery,
      triageDialog: dialog,
      triage: { messages: newest.length, ...triage },
      sync: { messages: syncMessages, ...sync },
      writesDuringImport: writes,
    }),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
