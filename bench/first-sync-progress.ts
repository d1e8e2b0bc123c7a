// A first sync's progress as a person watching it sees it (issue 28): a 20,000-message INBOX synced from a local
// Dovecot the way the app runs it (startSyncJob: the worker, its fetcher thread, parse threads), with the
// progress events the folder list shows. Measured: the time until the first messages are usable (the first
// committed batch: the newest 50, listed and searchable), the total time, and how often progress came. The
// comparison in the same run: the time left each progress event predicted ("about 2 min left", from the rate of
// about the last 10 s) and what the rate since the folder's start would have predicted, against the time the
// sync then really took, at a tenth, a quarter, half and three quarters of the folder.
//
//   node bench/first-sync-progress.ts [--count 20000] [--link MBIT,RTT_MS]    e.g. --link 100,20
import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { startSyncJob } from '../electron/mail/imap/sync-job.ts';
import type { SyncProgress } from '../electron/mail/imap/sync-progress.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { syncProgressText } from '../shared/sync-progress-text.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { ensureCorpus, outDir } from './corpus.ts';
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
  // Dovecot builds its index on first access; the measured sync does not pay for that.
  const warm = await server.client();
  await warm.mailboxOpen('INBOX', { readOnly: true });
  await warm.fetchAll('1:*', { uid: true, flags: true });
  await warm.logout();
  const link = values.link ? await startLink(server.port, mbit as number, rtt as number) : null;
  const port = link?.port ?? server.port;

  const dbFile = join(outDir, `first-sync-progress-${count}.sqlite`);
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'bench')").run().lastInsertRowid,
  );
  db.close();
  const login = loginFor({ ...server, port }, accountId, 'bench');

  const events: { at: number; p: SyncProgress }[] = [];
  let firstUsable = 0;
  const t = performance.now();
  const since = () => (performance.now() - t) / 1000;
  await new Promise<void>((resolve, reject) => {
    const job = startSyncJob(dbFile, login, (m) => {
      if (m.type === 'batch' && firstUsable === 0) firstUsable = since();
      if (m.type === 'progress' && m.progress.folder === 'Inbox') events.push({ at: since(), p: m.progress });
      if (m.type === 'synced') void job.stop().then(resolve);
      if (m.type === 'failed') void job.stop().then(() => reject(new Error(m.message)));
    });
  });
  const inboxDone = events.at(-1)?.at ?? since();
  const total = since();
  await link?.stop();

  const rows = [0.1, 0.25, 0.5, 0.75].map((share) => {
    const e = events.find((x) => x.p.done >= share * x.p.total && x.p.etaSeconds !== null) ?? events.at(-1);
    const at = e?.at ?? 0;
    return {
      share,
      done: e?.p.done ?? 0,
      atSeconds: round(at),
      predictedSeconds: e?.p.etaSeconds ?? null,
      // What the rate from the folder's start would have said (the estimate before the 10 s window).
      fromStartSeconds:
        e && e.p.done > 0 ? round(((e.p.total - e.p.done) * (at - (events[0]?.at ?? 0))) / e.p.done) : null,
      // What the rate of only the last 3 s would have said (a shorter window: quicker to follow the speed-up).
      last3sSeconds: (() => {
        if (!e) return null;
        const from = [...events].reverse().find((x) => x.at <= at - 3) ?? events[0];
        if (!from || e.p.done <= from.p.done) return null;
        return round(((e.p.total - e.p.done) * (at - from.at)) / (e.p.done - from.p.done));
      })(),
      actualSeconds: round(inboxDone - at),
      shown: e ? syncProgressText(e.p, 'en-US') : '',
    };
  });
  const gaps = events.slice(1).map((e, i) => e.at - (events[i]?.at ?? 0));
  const result = {
    bench: 'first-sync-progress',
    messages: raws.length,
    ...(link ? { link: { mbit, rttMs: rtt } } : {}),
    firstUsableSeconds: round(firstUsable),
    inboxSeconds: round(inboxDone),
    totalSeconds: round(total),
    progressEvents: events.length,
    longestGapSeconds: round(Math.max(0, ...gaps)),
    eta: rows,
  };
  console.log(
    `${raws.length} messages${link ? ` over ${mbit} Mbit/s, ${rtt} ms` : ''}: first messages usable after ${result.firstUsableSeconds} s, the Inbox done after ${result.inboxSeconds} s, the sync after ${result.totalSeconds} s`,
  );
  console.log(`${events.length} progress events for the Inbox, at most ${result.longestGapSeconds} s apart`);
  console.log('time left as shown, against what the rest of the Inbox then took:');
  for (const r of rows) {
    console.log(
      `  at ${r.share * 100} % (${r.atSeconds} s in): "${r.shown}" — predicted ${r.predictedSeconds} s (from the start's rate ${r.fromStartSeconds} s, the last 3 s's ${r.last3sSeconds} s), took ${r.actualSeconds} s`,
    );
  }
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
}
