// First sync of a large mailbox from a local Dovecot, as the app runs it (issue 5): `startSyncJob` syncs in
// its worker thread, with a fetcher thread downloading on a second connection (electron/mail/imap/imap-fetcher.ts),
// while this (main) thread only receives its messages. CPU seconds are printed per thread. Measured: messages/second, the
// time until the newest 50 messages are stored and visible (the first committed batch), and how long the
// main thread was ever blocked. Comparison in the same run: a bare imapflow loop over the same mailbox that
// fetches what a client needs to list and show the mail (UID SEARCH, then per 200 messages FETCH ENVELOPE,
// flags, size and BODYSTRUCTURE, then the text parts) and stores nothing. The ratio says whether the sync
// is limited by the server or by Skimmer. (Skimmer fetches the header fields it stores instead of the
// ENVELOPE: the same facts plus References.)
//
// With --link, both runs go through bench/slow-link.ts, a TCP proxy that gives the connection the bandwidth
// and round trip of a real line to a mail provider (both directions' bandwidth shared by all connections).
//
//   node bench/imap-sync.ts [--count 20000] [--link MBIT,RTT_MS]    e.g. --link 100,20
import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ImapFlow } from 'imapflow';
import { openDatabase } from '../electron/db/open.ts';
import { planParts, type Structure } from '../electron/mail/imap/imap-message.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { startSyncJob } from '../electron/mail/imap/sync-job.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { ensureCorpus, outDir } from './corpus.ts';
import { groupCpu, threadCpu } from './cpu-time.ts';
import { startLink } from './start-link.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, link: { type: 'string' } },
});
const count = Number(values.count);
const { mbox } = ensureCorpus(count);
const [mbit, rtt] = (values.link ?? '').split(',').map(Number);

const server = await startDovecot();
try {
  const raws: Buffer[] = [];
  for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) raws.push(m.raw);
  server.seedMaildir('test@example.com', 'INBOX', raws);
  const megabytes = raws.reduce((n, r) => n + r.length, 0) / 1e6;
  console.log(
    `Dovecot on 127.0.0.1:${server.port}, INBOX seeded with ${raws.length} messages (${round(megabytes)} MB)`,
  );

  // Dovecot builds its index on first access; neither measured run pays for that.
  const warm = await server.client();
  await warm.mailboxOpen('INBOX', { readOnly: true });
  await warm.fetchAll('1:*', { uid: true, envelope: true });
  await warm.logout();

  const link = values.link ? await startLink(server.port, mbit as number, rtt as number) : null;
  const port = link?.port ?? server.port;
  if (link) console.log(`both runs go through a link of ${mbit} Mbit/s each way and ${rtt} ms round trip`);

  // The bare loop.
  const bare = new ImapFlow({ ...server.imapOptions(), port });
  await bare.connect();
  const dovecotCpu = () => groupCpu(server.pid as number);
  let serverCpu = dovecotCpu();
  const cpu = process.cpuUsage();
  let t = performance.now();
  await bare.mailboxOpen('INBOX', { readOnly: true });
  const uids = ((await bare.search({ all: true }, { uid: true })) || []).sort((a, b) => b - a);
  for (let i = 0; i < uids.length; i += 200) {
    const range = uids.slice(i, i + 200).join(',');
    const listed = await bare.fetchAll(
      range,
      { uid: true, flags: true, envelope: true, bodyStructure: true, size: true },
      { uid: true },
    );
    const shapes = new Map<string, number[]>();
    for (const m of listed) {
      const key = planParts(m.bodyStructure as Structure)
        .text.map((p) => p.part)
        .join(' ');
      shapes.set(key, [...(shapes.get(key) ?? []), m.uid]);
    }
    for (const [key, group] of shapes) {
      if (key) await bare.fetchAll(group.join(','), { uid: true, bodyParts: key.split(' ') }, { uid: true });
    }
  }
  const bareSeconds = (performance.now() - t) / 1000;
  const bareCpu = process.cpuUsage(cpu);
  await bare.logout();
  const bareServerCpu = dovecotCpu() - serverCpu;

  // Skimmer, as the app runs it.
  const dbFile = join(outDir, `imap-sync-${count}.sqlite`);
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'bench')").run().lastInsertRowid,
  );
  db.close();
  const login = loginFor({ ...server, port }, accountId, 'bench');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  serverCpu = dovecotCpu();
  const threadsBefore = threadCpu();
  let threadsUsed = new Map<string, number>();
  t = performance.now();
  let firstVisible = 0;
  let added = 0;
  let syncServerCpu = 0;
  await new Promise<void>((resolve, reject) => {
    const job = startSyncJob(dbFile, login, (m) => {
      if (m.type === 'batch' && firstVisible === 0) firstVisible = (performance.now() - t) / 1000;
      if (m.type === 'synced') {
        // Read before the worker and its parse threads stop, which takes their counters with them.
        threadsUsed = new Map(
          [...threadCpu()].map(([name, s]) => [name, s - (threadsBefore.get(name) ?? 0)] as const),
        );
        syncServerCpu = dovecotCpu() - serverCpu;
        added = m.summary.added;
        void job.stop().then(resolve);
      }
      if (m.type === 'failed') void job.stop().then(() => reject(new Error(m.message)));
    });
  });
  const syncSeconds = (performance.now() - t) / 1000;
  delay.disable();
  const check = openDatabase(dbFile);
  const newest = check.prepare('SELECT count(*) FROM messages').pluck().get() as number;
  // A sync with nothing new on the server, as each IDLE wake or the 5-minute look runs it: connect, replay
  // the (empty) queue, LIST, and SELECT each folder, whose unchanged HIGHESTMODSEQ and count end its turn.
  const unchanged: number[] = [];
  for (let i = 0; i < 3; i++) {
    const at = performance.now();
    const again = await syncAccount(check, login);
    if (again.added + again.removed + again.flagsChanged > 0) throw new Error('the second sync changed mail');
    unchanged.push((performance.now() - at) / 1000);
  }
  check.close();
  const carried = link ? await link.stop() : null;

  const result = {
    bench: 'imap-sync',
    messages: raws.length,
    stored: newest,
    added,
    bare: {
      seconds: round(bareSeconds),
      perSecond: round(raws.length / bareSeconds),
      cpuSeconds: { client: round((bareCpu.user + bareCpu.system) / 1e6), dovecot: round(bareServerCpu) },
    },
    skimmer: {
      seconds: round(syncSeconds),
      perSecond: round(raws.length / syncSeconds),
      newest50VisibleSeconds: round(firstVisible),
      mainThreadMaxStallMs: round(delay.max / 1e6),
      mainThreadP99StallMs: round(delay.percentile(99) / 1e6),
      cpuSeconds: {
        ...Object.fromEntries([...threadsUsed].filter(([, s]) => s >= 0.05).map(([n, s]) => [n, round(s)])),
        dovecot: round(syncServerCpu),
      },
    },
    ratio: round(syncSeconds / bareSeconds),
    ...(carried
      ? {
          link: {
            mbit,
            rttMs: rtt,
            megabytesDown: round(carried.down / 1e6),
            megabytesUp: round(carried.up / 1e6),
          },
        }
      : {}),
    unchangedSyncSeconds: unchanged.map(round),
  };
  console.log(
    `bare imapflow loop (envelope, flags, size, BODYSTRUCTURE, text parts): ${round(bareSeconds)} s, ${result.bare.perSecond} msg/s`,
  );
  console.log(
    `  CPU: this client ${result.bare.cpuSeconds.client} s, Dovecot ${result.bare.cpuSeconds.dovecot} s`,
  );
  console.log(
    `Skimmer first sync (worker, stored and indexed): ${round(syncSeconds)} s, ${result.skimmer.perSecond} msg/s`,
  );
  console.log(`  newest 50 visible after ${round(firstVisible)} s; ratio to the bare loop ${result.ratio}`);
  console.log(
    `  main thread blocked at most ${result.skimmer.mainThreadMaxStallMs} ms (p99 ${result.skimmer.mainThreadP99StallMs} ms)`,
  );
  console.log(
    `  CPU by thread: ${Object.entries(result.skimmer.cpuSeconds)
      .map(([n, s]) => `${n} ${s} s`)
      .join(', ')}`,
  );
  console.log(
    `a sync with nothing new (same HIGHESTMODSEQ and count in every folder), 3 times: ${result.unchangedSyncSeconds.join(', ')} s`,
  );
  if (result.link) {
    console.log(
      `the link carried ${result.link.megabytesDown} MB down and ${result.link.megabytesUp} MB up in all (both runs and the syncs with nothing new)`,
    );
  }
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
}
