// From news to stored (issue 5): how long after another client puts a message into INBOX the app has it
// stored, as the app runs it: `startSyncJob` waits in IDLE in its worker, the server reports the new message,
// the worker syncs and commits it (its 'batch' message). Each round appends one message once the worker has
// been waiting for a while; the time runs from the APPEND's answer to the worker's report. Also counted: the
// logins the server saw during the rounds (its log), which a worker that keeps its connections (imap-session.ts)
// does not make. The link (bench/slow-link.ts) gives the worker's connections a real line's round trip; the
// appending client connects to the server directly, once.
//
//   node bench/imap-news.ts [--rounds 5] [--link MBIT,RTT_MS]    the link is 100,20 unless given
//
// No comparison inside one run: the code before kept no connection. Run the same script from a git worktree of
// an earlier commit (bench/README.md has both figures).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { startSyncJob } from '../electron/mail/imap/sync-job.ts';
import type { SyncWorkerMessage } from '../electron/mail/imap/sync-worker.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { eml } from '../test/support/temp.ts';
import { outDir } from './corpus.ts';
import { startLink } from './start-link.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, link: { type: 'string', default: '100,20' } },
});
const rounds = Number(values.rounds);
const [mbit, rtt] = (values.link as string).split(',').map(Number) as [number, number];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = await startDovecot();
const link = await startLink(server.port, mbit, rtt);
try {
  server.seedMaildir(
    'test@example.com',
    'INBOX',
    Array.from({ length: 20 }, (_, i) => eml({ id: `<old${i}@example.com>`, subject: `Old ${i}` })),
  );
  const logins = () =>
    readFileSync(join(server.dir, 'dovecot.log'), 'utf8').split('imap-login: Info: Login:').length - 1;
  console.log(
    `Dovecot on 127.0.0.1:${server.port}; the worker goes through a link of ${mbit} Mbit/s, ${rtt} ms`,
  );

  mkdirSync(outDir, { recursive: true });
  const dbFile = join(outDir, 'imap-news.sqlite');
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'bench')").run().lastInsertRowid,
  );
  db.close();

  let heard: ((m: SyncWorkerMessage) => void) | null = null;
  /** When the worker next reports a message of this type. */
  const next = (type: SyncWorkerMessage['type']) =>
    new Promise<number>((resolve) => {
      heard = (m) => {
        if (m.type !== type) return;
        heard = null;
        resolve(performance.now());
      };
    });
  const firstSync = next('synced');
  // A wait of 10 minutes: within the run only the news starts a round.
  const job = startSyncJob(
    dbFile,
    loginFor({ ...server, port: link.port }, accountId, 'bench'),
    (m) => {
      if (m.type === 'failed') console.error(`the worker failed: ${m.message}`);
      heard?.(m);
    },
    { maxIdleMs: 10 * 60_000 },
  );
  const other = await server.client();
  const seconds: number[] = [];
  let roundLogins = 0;
  try {
    await firstSync;
    const before = logins();
    for (let i = 0; i < rounds; i++) {
      // Long enough for either code to be in IDLE again (a new connection takes about 20 round trips).
      await sleep(2000);
      const stored = next('batch');
      await other.append('INBOX', eml({ id: `<news${i}@example.com>`, subject: `News ${i}` }));
      const appended = performance.now();
      seconds.push(((await stored) - appended) / 1000);
      await next('synced');
    }
    roundLogins = logins() - before;
  } finally {
    await other.logout();
    await job.stop();
  }
  const carried = await link.stop();
  const news = { ...summary(seconds), min: round(Math.min(...seconds)), each: seconds.map(round) };
  console.log(
    `news → stored over ${rtt} ms: median ${news.median} s, min ${news.min} s, max ${news.max} s (${rounds} rounds)`,
  );
  console.log(`logins the server saw during the rounds: ${roundLogins}`);
  console.log(
    JSON.stringify({
      bench: 'imap-news',
      rounds,
      link: { mbit, rttMs: rtt },
      newsToStoredSeconds: news,
      loginsDuringRounds: roundLogins,
      kilobytesCarried: { down: round(carried.down / 1e3), up: round(carried.up / 1e3) },
    }),
  );
} finally {
  await link.stop();
  await server.stop();
}
