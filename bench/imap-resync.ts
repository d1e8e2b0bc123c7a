// An incremental IMAP sync after another client's changes (issue 5), with QRESYNC and without, in the same
// run. A local Dovecot's INBOX holds the corpus (seeded like bench/imap-sync.ts); one first sync fills a
// database, which is copied so both ways start from the same state. Then, per round, a second client
// makes 1 new message, 200 flag changes and 20 expunges, and `syncAccount` runs on each copy: one with
// QRESYNC (the folder opens with what the last sync saw and hears what changed), one with it off (UID
// SEARCH ALL, FETCH of the flags CHANGEDSINCE). The order alternates between rounds. Then syncs with
// nothing new, both ways: with QRESYNC the EXAMINE answers it; without, the HIGHESTMODSEQ-and-count
// shortcut does. Each sync's wall time, and the CPU seconds of this process and of Dovecot.
//
//   node bench/imap-resync.ts [--count 20000] [--rounds 5]
import { copyFileSync, createReadStream, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Db } from '../electron/db/open.ts';
import { openDatabase } from '../electron/db/open.ts';
import { imapClient } from '../electron/mail/imap/imap-connect.ts';
import { type SyncSummary, syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { ensureCorpus, outDir } from './corpus.ts';
import { groupCpu } from './cpu-time.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } },
});
const count = Number(values.count);
const rounds = Number(values.rounds);
const flagChanges = 200;
const expunges = 20;
const { mbox } = ensureCorpus(count);

type Way = 'qresync' | 'full';
type Timed = { seconds: number; cpuSeconds: number; dovecotCpuSeconds: number; summary: SyncSummary };

const server = await startDovecot();
try {
  const raws: Buffer[] = [];
  for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) raws.push(m.raw);
  server.seedMaildir('test@example.com', 'INBOX', raws);
  console.log(`Dovecot on 127.0.0.1:${server.port}, INBOX seeded with ${raws.length} messages`);
  const warm = await server.client();
  await warm.mailboxOpen('INBOX', { readOnly: true });
  await warm.fetchAll('1:*', { uid: true, envelope: true });
  await warm.logout();

  // One first sync, then a copy of its database for each way.
  const file = (way: Way | 'first') => join(outDir, `imap-resync-${count}-${way}.sqlite`);
  const remove = (f: string) => {
    for (const x of [f, `${f}-wal`, `${f}-shm`]) rmSync(x, { force: true });
  };
  remove(file('first'));
  const first = openDatabase(file('first'));
  const accountId = Number(
    first.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'bench')").run().lastInsertRowid,
  );
  const login = loginFor(server, accountId, 'bench');
  const t = performance.now();
  const initial = await syncAccount(first, login);
  console.log(`first sync: ${initial.added} messages in ${round((performance.now() - t) / 1000)} s`);
  first.close();
  const dbs = new Map<Way, Db>();
  for (const way of ['qresync', 'full'] as const) {
    remove(file(way));
    copyFileSync(file('first'), file(way));
    if (existsSync(`${file('first')}-wal`)) copyFileSync(`${file('first')}-wal`, `${file(way)}-wal`);
    dbs.set(way, openDatabase(file(way)));
  }

  const timedSync = async (way: Way): Promise<Timed> => {
    const dovecot = groupCpu(server.pid as number);
    const cpu = process.cpuUsage();
    const at = performance.now();
    const summary = await syncAccount(dbs.get(way) as Db, login, {
      client: (l) => imapClient(l, undefined, { qresync: way === 'qresync' }),
    });
    const used = process.cpuUsage(cpu);
    return {
      seconds: (performance.now() - at) / 1000,
      cpuSeconds: (used.user + used.system) / 1e6,
      dovecotCpuSeconds: groupCpu(server.pid as number) - dovecot,
      summary,
    };
  };
  const both = async (i: number) => {
    const order: Way[] = i % 2 === 0 ? ['qresync', 'full'] : ['full', 'qresync'];
    const out = new Map<Way, Timed>();
    for (const way of order) out.set(way, await timedSync(way));
    return out;
  };

  // The other client's changes: each round touches messages no earlier round touched.
  const other = await server.client();
  await other.mailboxOpen('INBOX');
  const uids = ((await other.search({ all: true }, { uid: true })) || []).sort((a, b) => a - b);
  const changed: Record<Way, number[]> = { qresync: [], full: [] };
  const cpu: Record<Way, number[]> = { qresync: [], full: [] };
  const dovecotCpu: Record<Way, number[]> = { qresync: [], full: [] };
  for (let r = 0; r < rounds; r++) {
    const slice = uids.slice(r * (flagChanges + expunges), (r + 1) * (flagChanges + expunges));
    await other.append(
      'INBOX',
      [
        'From: Bench <bench@example.com>',
        'To: test@example.com',
        `Subject: Resync round ${r}`,
        `Message-ID: <resync-${r}@example.com>`,
        'Date: Mon, 30 Nov 2026 09:00:00 +0000',
        '',
        `New in round ${r}.`,
        '',
      ].join('\r\n'),
    );
    await other.messageFlagsAdd(slice.slice(0, flagChanges).join(','), ['\\Flagged'], { uid: true });
    await other.messageDelete(slice.slice(flagChanges).join(','), { uid: true });
    const result = await both(r);
    for (const [way, x] of result) {
      const s = x.summary;
      if (s.added !== 1 || s.flagsChanged !== flagChanges || s.removed !== expunges) {
        throw new Error(`${way} sync saw ${JSON.stringify(s)}`);
      }
      changed[way].push(x.seconds);
      cpu[way].push(x.cpuSeconds);
      dovecotCpu[way].push(x.dovecotCpuSeconds);
    }
  }
  await other.logout();

  const unchanged: Record<Way, number[]> = { qresync: [], full: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [way, x] of await both(r)) {
      const s = x.summary;
      if (s.added + s.removed + s.flagsChanged + s.linked > 0) throw new Error(`${way}: a change was found`);
      unchanged[way].push(x.seconds);
    }
  }
  for (const db of dbs.values()) db.close();

  const list = (xs: number[]) => xs.map(round).join(', ');
  const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number);
  // The two syncs of a round run back to back, so their difference is less moved by the machine's load
  // than either time.
  const saved = (a: number[], b: number[]) => a.map((x, i) => x - (b[i] as number));
  console.log(
    `after 1 new message, ${flagChanges} flag changes and ${expunges} expunges in a ${count}-message INBOX, ${rounds} rounds:`,
  );
  for (const way of ['qresync', 'full'] as const) {
    console.log(
      `  ${way === 'qresync' ? 'with QRESYNC   ' : 'without QRESYNC'}: ${list(changed[way])} s (median ${median(changed[way])} s); CPU here ${list(cpu[way])} s, Dovecot ${list(dovecotCpu[way])} s`,
    );
  }
  console.log(
    `  without minus with, per round: ${list(saved(changed.full, changed.qresync))} s (median ${median(saved(changed.full, changed.qresync))} s)`,
  );
  console.log('a sync with nothing new:');
  for (const way of ['qresync', 'full'] as const) {
    console.log(
      `  ${way === 'qresync' ? 'with QRESYNC   ' : 'without QRESYNC (HIGHESTMODSEQ and count shortcut)'}: ${list(unchanged[way])} s (median ${median(unchanged[way])} s)`,
    );
  }
  console.log(
    JSON.stringify({
      bench: 'imap-resync',
      messages: count,
      rounds,
      changes: { added: 1, flagsChanged: flagChanges, expunged: expunges },
      changedSeconds: { qresync: changed.qresync.map(round), full: changed.full.map(round) },
      cpuSeconds: { qresync: cpu.qresync.map(round), full: cpu.full.map(round) },
      dovecotCpuSeconds: { qresync: dovecotCpu.qresync.map(round), full: dovecotCpu.full.map(round) },
      savedSecondsMedian: median(saved(changed.full, changed.qresync)),
      unchangedSeconds: { qresync: unchanged.qresync.map(round), full: unchanged.full.map(round) },
    }),
  );
} finally {
  await server.stop();
}
