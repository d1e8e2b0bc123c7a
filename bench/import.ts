// The import as the app runs it: startImportJob parses and indexes in a worker thread while this (main)
// thread only receives progress events. Measured: messages/second, wall time, peak RSS of the process
// (the worker lives in it), database size, and how long the main thread was ever blocked (the figure that
// says the UI stays responsive during an import). Comparisons in the same script: `mu index` and `notmuch new`
// over the same mail as a Maildir when they are on PATH, and the corpus parsed by mailparser alone on this
// thread (no DB).
//
// Also the same import with the other number of parse threads (one, or two where the default is one), in a
// child process so that each peak memory figure is its own.
//
//   node bench/import.ts [--count 20000] [--small] [--no-compare] [--parse-threads N] [--rounds 3]
import { spawn, spawnSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import { cliEntry } from '../bin/cli-entry.mjs';
import { openDatabase } from '../electron/db/open.ts';
import { userPlaces } from '../electron/files/safe-open.ts';
import { startImportJob } from '../electron/mail/import/import-job.ts';
import { maxStoredText } from '../electron/mail/import/parse-bounds.ts';
import { defaultParseThreads } from '../electron/mail/import/parse-pool.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import type { StreamEvent } from '../shared/contract/index.ts';
import { corpusBase, databasePath, ensureCorpus, ensureMaildir, outDir } from './corpus.ts';
import { threadCpu } from './cpu-time.ts';
import { mb, round } from './stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    small: { type: 'boolean', default: false },
    'no-compare': { type: 'boolean', default: false },
    'parse-threads': { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const parseThreads = values['parse-threads'] ? Number(values['parse-threads']) : defaultParseThreads();
const count = Number(values.count);
const small = values.small;
const { mbox } = ensureCorpus(count, small);
const mboxBytes = statSync(mbox).size;
const dbFile = databasePath(count, small);
for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
openDatabase(dbFile).close();

const imported = await measureImport();
console.log(
  `Skimmer import (worker, up to ${parseThreads} parse thread${parseThreads === 1 ? '' : 's'}): ${imported.messages} messages (${mb(mboxBytes)} MB mbox) in ${imported.seconds} s = ${imported.perSecond} msg/s; ` +
    `imported ${imported.imported}, duplicates ${imported.duplicates}, failed ${imported.failed}`,
);
console.log(
  `  peak RSS ${imported.peakRssMb} MB (kernel high-water mark; sampled max ${imported.sampledPeakRssMb} MB, before start ${imported.baselineRssMb} MB); database ${imported.dbMb} MB`,
);
console.log(
  `  CPU ${imported.cpu.seconds} s in all (${imported.cpu.perMessageUs} µs a message): ${Object.entries(
    imported.cpu.byThread,
  )
    .map(([name, sec]) => `${name} ${sec} s`)
    .join(', ')}`,
);
console.log(
  `  main thread: longest event-loop stall ${imported.stall.maxMs} ms (p99 ${imported.stall.p99Ms} ms, mean ${imported.stall.meanMs} ms; 10 ms timer lateness max ${imported.stall.timerMaxLateMs} ms), ${imported.progressEvents} progress events`,
);
console.log(
  `  worst 10 ms-timer lateness: ${imported.stall.worstTimerLateness.map((w) => `${w.lateMs} ms at ${w.atSeconds} s`).join(', ')}; ` +
    `main-thread GC: ${imported.stall.mainGcPauses} pauses, longest ${imported.stall.mainGcMaxMs} ms`,
);

const comparisons: Record<string, unknown> = {};
if (!values['no-compare']) {
  const other = parseThreads === 1 ? 2 : 1;
  const run = spawnSync(
    process.execPath,
    [
      new URL(import.meta.url).pathname,
      `--count=${count}`,
      ...(small ? ['--small'] : []),
      '--no-compare',
      `--parse-threads=${other}`,
    ],
    { encoding: 'utf8' },
  );
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  const otherThreads = JSON.parse(line) as typeof imported;
  comparisons.otherParseThreads = { parseThreads: other, ...otherThreads };
  console.log(
    `Comparison, the same import with up to ${other} parse thread${other === 1 ? '' : 's'}: ${otherThreads.perSecond} msg/s (${otherThreads.seconds} s), peak RSS ${otherThreads.peakRssMb} MB, CPU ${otherThreads.cpu.seconds} s`,
  );
  // The whole command and mu's index, in turn (Skimmer, mu, Skimmer, mu …), and the ratio taken pair by pair: this
  // machine's speed drifts by half within a minute (a shared host), and a pair run back to back sees the same drift.
  const pairs: {
    command: Awaited<ReturnType<typeof skimmerCommand>>;
    mu: Awaited<ReturnType<typeof muIndex>>;
  }[] = [];
  for (let round = 0; round < rounds; round++)
    pairs.push({ command: await skimmerCommand(), mu: await muIndex() });
  const command = medianBy(
    pairs.map((p) => p.command),
    (c) => c.seconds,
  );
  comparisons.skimmerCommand = command;
  comparisons.rounds = pairs;
  console.log(
    `Skimmer as a whole command (\`skimmer import\` of the Maildir mu indexes, ${command.build}), the median of ${rounds}: ${command.messages} messages in ${command.seconds} s = ${command.perSecond} msg/s; peak RSS ${command.peakRssMb} MB; CPU ${command.cpuSeconds} s; data folder ${command.dataMb} MB`,
  );
  const mu = medianBy(
    pairs.flatMap((p) => (p.mu ? [p.mu] : [])),
    (m) => m.indexSeconds,
  );
  comparisons.mu = mu ?? null;
  if (mu) {
    console.log(
      `Comparison, mu ${mu.version} (Xapian index only, no bodies stored), the median of ${rounds}: init ${mu.initSeconds} s + index ${mu.indexSeconds} s = ${mu.perSecond} msg/s over ${mu.messages} Maildir files (${mu.stored} stored); peak RSS ${mu.peakRssMb} MB; CPU ${mu.cpuSeconds} s; index ${mu.indexMb} MB`,
    );
    for (const [i, p] of pairs.entries()) {
      if (!p.mu) continue;
      console.log(
        `  round ${i + 1}, whole processes on the same Maildir: Skimmer ${p.command.seconds} s, mu ${round(p.mu.initSeconds + p.mu.indexSeconds)} s: ${round(p.command.perSecond / p.mu.perSecond)}× mu's speed, ${round(p.command.peakRssMb / p.mu.peakRssMb)}× its peak memory, ${round(p.command.cpuSeconds / p.mu.cpuSeconds)}× its CPU seconds`,
      );
    }
    const ratios = pairs.flatMap((p) => (p.mu ? [round(p.command.perSecond / p.mu.perSecond)] : []));
    const memory = pairs.flatMap((p) => (p.mu ? [round(p.command.peakRssMb / p.mu.peakRssMb)] : []));
    console.log(
      `  ratio over the ${ratios.length} rounds: Skimmer ${Math.min(...ratios)}–${Math.max(...ratios)}× mu's speed (median ${medianBy(ratios, (r) => r)}×), ${Math.min(...memory)}–${Math.max(...memory)}× its peak memory`,
    );
  } else console.log('Comparison, mu: not on PATH (Debian: apt-get install maildir-utils); skipped.');
  const notmuch = await notmuchNew();
  comparisons.notmuch = notmuch;
  if (notmuch) {
    console.log(
      `Comparison, notmuch ${notmuch.version} (\`notmuch new\`, Xapian, a fresh index): ${notmuch.seconds} s = ${notmuch.perSecond} msg/s over ${notmuch.messages} Maildir files; peak RSS ${notmuch.peakRssMb} MB; CPU ${notmuch.cpuSeconds} s; index ${notmuch.indexMb} MB`,
    );
    console.log(
      `  ratio, whole processes on the same Maildir: Skimmer ${round(command.perSecond / notmuch.perSecond)}× notmuch's speed, ${round(command.peakRssMb / notmuch.peakRssMb)}× its peak memory, ${round(command.cpuSeconds / notmuch.cpuSeconds)}× its CPU seconds`,
    );
  } else console.log('Comparison, notmuch: not on PATH (Debian: apt-get install notmuch); skipped.');
  const parseOnly = await mailparserOnly();
  comparisons.mailparserMainThread = parseOnly;
  console.log(
    `Comparison, mailparser alone on the main thread (split + parse, no DB): ${parseOnly.messages} messages in ${parseOnly.seconds} s = ${parseOnly.perSecond} msg/s; longest stall ${parseOnly.longestStallMs} ms`,
  );
}

console.log(
  JSON.stringify({
    bench: 'import',
    node: process.version,
    mboxMb: mb(mboxBytes),
    parseThreads,
    ...imported,
    comparisons,
  }),
);

async function measureImport() {
  const started = performance.now();
  const baseline = process.memoryUsage.rss();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadCpu();
  // The workers' CPU as last seen alive: a thread's figure is gone from /proc once it ends.
  const threadsSeen = new Map<string, number>();
  let sampledPeak = baseline;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    for (const [name, sec] of threadCpu())
      threadsSeen.set(name, Math.max(threadsSeen.get(name) ?? 0, sec - (threadsBefore.get(name) ?? 0)));
  }, 100);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  // A second opinion on the histogram: how late a 10 ms timer fires.
  // The five worst are kept with the time they happened, to tell a start-up cost from a steady one.
  let timerMaxLate = 0;
  const worst: { atSeconds: number; lateMs: number }[] = [];
  let due = performance.now() + 10;
  const ticker = setInterval(() => {
    const now = performance.now();
    const late = now - due;
    timerMaxLate = Math.max(timerMaxLate, late);
    if (late > 5) {
      worst.push({ atSeconds: round((now - started) / 1000), lateMs: round(late) });
      worst.sort((a, b) => b.lateMs - a.lateMs).splice(5);
    }
    due = now + 10;
  }, 10);
  // Main-thread garbage collection, to tell our own pauses from the CPU being busy with the worker.
  let gcCount = 0;
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcCount++;
      gcMaxMs = Math.max(gcMaxMs, e.duration);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  loop.enable();
  let progressEvents = 0;
  let finished: { event: StreamEvent; at: number } | null = null;
  // The corpus is in bench/out, inside the checkout, which need not be one of the user's places.
  const job = startImportJob(
    dbFile,
    [mbox],
    userPlaces({ extraRoots: [outDir] }),
    (event) => {
      if (event.type === 'import_progress') progressEvents++;
      else finished = { event, at: performance.now() };
    },
    { parseThreads },
  );
  await job.done;
  loop.disable();
  gc.disconnect();
  clearInterval(ticker);
  clearInterval(sampler);
  const end = finished as { event: StreamEvent; at: number } | null;
  if (end?.event.type !== 'import_done')
    throw new Error(`The import did not finish: ${JSON.stringify(end?.event)}`);
  const seconds = (end.at - started) / 1000;
  const { summary } = end.event;
  const messages = summary.imported + summary.duplicates + summary.failed.length;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const dbBytes = [dbFile, `${dbFile}-wal`].filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
  return {
    messages,
    imported: end.event.summary.imported,
    duplicates: end.event.summary.duplicates,
    failed: end.event.summary.failed.length,
    seconds: round(seconds),
    perSecond: round(messages / seconds),
    peakRssMb: mb(highWaterMark(process.pid) ?? sampledPeak),
    sampledPeakRssMb: mb(sampledPeak),
    baselineRssMb: mb(baseline),
    dbMb: mb(dbBytes),
    cpu: {
      seconds: round(cpuSeconds),
      perMessageUs: round((cpuSeconds * 1e6) / messages),
      byThread: Object.fromEntries(
        [...threadsSeen].filter(([, sec]) => sec >= 0.05).map(([n, sec]) => [n, round(sec)]),
      ),
    },
    stall: {
      maxMs: round(loop.max / 1e6),
      p99Ms: round(loop.percentile(99) / 1e6),
      meanMs: round(loop.mean / 1e6),
      timerMaxLateMs: round(timerMaxLate),
      worstTimerLateness: worst,
      mainGcPauses: gcCount,
      mainGcMaxMs: round(gcMaxMs),
    },
    progressEvents,
  };
}

// CPU seconds of a process and all its threads so far (utime + stime of /proc/PID/stat): read every 50 ms while it
// runs, the last reading is within 50 ms of its end.
function processCpu(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

// Peak resident set size as the kernel counts it (VmHWM), in bytes.
function highWaterMark(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function muIndex() {
  const probe = spawnSync('mu', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  const version = /version ([\d.]+)/.exec(probe.stdout)?.[1] ?? 'unknown';
  const { dir: maildir, messages } = await ensureMaildir(count, small);
  const muhome = `${corpusBase(count, small)}-muhome`;
  rmSync(muhome, { recursive: true, force: true });
  const init = await timed('mu', ['init', `--maildir=${maildir}`, `--muhome=${muhome}`]);
  const index = await timed('mu', ['index', `--muhome=${muhome}`]);
  const indexBytes = dirBytes(muhome);
  return {
    version,
    messages,
    initSeconds: round(init.seconds),
    indexSeconds: round(index.seconds),
    perSecond: round(messages / (init.seconds + index.seconds)),
    peakRssMb: mb(Math.max(init.peakRss, index.peakRss)),
    cpuSeconds: round(init.cpuSeconds + index.cpuSeconds),
    indexMb: mb(indexBytes),
    // mu redraws one progress line with \r; the last one says how many messages it stored.
    stored: Number(
      /updated\/new: (\d+)/.exec(
        index.output
          .split(/[\r\n]+/)
          .filter(Boolean)
          .at(-1) ?? '',
      )?.[1] ?? Number.NaN,
    ),
  };
}

// `notmuch new` over the same Maildir into a fresh index beside it (not inside it), flags not synchronized, as
// bench/mail-indexers.ts configures it for the search benchmark.
async function notmuchNew() {
  const probe = spawnSync('notmuch', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  const version = /notmuch ([\d.]+)/.exec(probe.stdout)?.[1] ?? 'unknown';
  const { dir: maildir, messages } = await ensureMaildir(count, small);
  const base = `${corpusBase(count, small)}-notmuch-import`;
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  const config = `${base}/config`;
  writeFileSync(
    config,
    [
      '[database]',
      `path=${base}/db`,
      `mail_root=${maildir}`,
      '[new]',
      'tags=inbox;unread',
      '[maildir]',
      'synchronize_flags=false',
      '',
    ].join('\n'),
  );
  mkdirSync(`${base}/db`, { recursive: true });
  const run = await timed('notmuch', ['new', '--quiet'], { ...process.env, NOTMUCH_CONFIG: config });
  const result = {
    version,
    messages,
    seconds: round(run.seconds),
    perSecond: round(messages / run.seconds),
    peakRssMb: mb(run.peakRss),
    cpuSeconds: round(run.cpuSeconds),
    indexMb: mb(dirBytes(`${base}/db`)),
  };
  rmSync(base, { recursive: true, force: true });
  return result;
}

// `skimmer import` as a user runs it (bin/skimmer.mjs: the build in dist-cli/ when it is current), into a fresh
// data folder, over the Maildir mu indexes; HOME points at bench/out so the corpus is in one of the user's places.
async function skimmerCommand() {
  const { dir: maildir, messages } = await ensureMaildir(count, small);
  const data = `${corpusBase(count, small)}-cli-data`;
  rmSync(data, { recursive: true, force: true });
  const bin = fileURLToPath(new URL('../bin/skimmer.mjs', import.meta.url));
  // As a user runs it: the build, made now if a source is newer (the command would otherwise strip types).
  if (!cliEntry().includes('dist-cli')) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const vite = spawnSync(
      process.execPath,
      [
        `${root}node_modules/vite/bin/vite.js`,
        'build',
        '--config',
        'vite.cli.config.ts',
        '--logLevel',
        'warn',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (vite.status !== 0) throw new Error(`The command line's build failed: ${vite.stderr}`);
  }
  const run = await timed(process.execPath, [bin, 'import', '--data', data, maildir], {
    ...process.env,
    HOME: outDir,
  });
  return {
    build: cliEntry().includes('dist-cli')
      ? 'the build in dist-cli/'
      : 'from source: run `npm run build` first',
    messages,
    seconds: round(run.seconds),
    perSecond: round(messages / run.seconds),
    peakRssMb: mb(run.peakRss),
    cpuSeconds: round(run.cpuSeconds),
    dataMb: mb(dirBytes(data)),
    output: run.output.trim().split('\n').at(-1),
  };
}

function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ seconds: number; peakRss: number; cpuSeconds: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    let peakRss = 0;
    let cpuSeconds = 0;
    const poll = setInterval(() => {
      peakRss = Math.max(peakRss, child.pid ? (highWaterMark(child.pid) ?? 0) : 0);
      cpuSeconds = Math.max(cpuSeconds, child.pid ? (processCpu(child.pid) ?? 0) : 0);
    }, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0)
        reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${output.slice(-500)}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakRss, cpuSeconds, output });
    });
  });
}

/** The run whose figure is the median (the lower middle of an even count). */
function medianBy<T>(runs: readonly T[], figure: (run: T) => number): T {
  const sorted = [...runs].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += statSync(`${e.parentPath}/${e.name}`).size;
  }
  return n;
}

// The parse cost alone, on this thread, so the reader sees what the worker adds on top of parsing
// (threading, hashing, html-to-text, SQLite/FTS5 writes) — and what a main-thread import would block.
async function mailparserOnly() {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  let messages = 0;
  for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) {
    await simpleParser(m.raw, {
      skipImageLinks: true,
      skipTextLinks: true,
      skipTextToHtml: true,
      keepCidLinks: true,
      maxHtmlLengthToParse: maxStoredText,
    });
    messages++;
  }
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  return {
    messages,
    seconds: round(seconds),
    perSecond: round(messages / seconds),
    longestStallMs: round(loop.max / 1e6),
  };
}
