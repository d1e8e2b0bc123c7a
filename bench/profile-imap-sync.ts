// The first IMAP sync without its worker and parse threads, so `node --cpu-prof` sees every function it
// runs on one thread (the server is a local Dovecot, seeded as bench/imap-sync.ts seeds it):
//
//   node --cpu-prof --cpu-prof-dir=bench/out/profile bench/profile-imap-sync.ts [--count 5000]
//   node bench/cpuprofile-top.ts bench/out/profile/<file>.cpuprofile
//
// Same code path as the sync worker (syncAccount on its own connection), with parseMessage called in
// this thread instead of through the pool. Seeding and Dovecot's first index build happen before the
// measured part, but the profile holds them too: read the profile's top rows with that in mind.
import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { loginFor, startDovecot } from '../test/support/dovecot.ts';
import { ensureCorpus, outDir } from './corpus.ts';
import { round } from './stats.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '5000' } } });
const count = Number(values.count);
const { mbox } = ensureCorpus(count);
const server = await startDovecot();
try {
  const raws: Buffer[] = [];
  for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) raws.push(m.raw);
  server.seedMaildir('test@example.com', 'INBOX', raws);
  const warm = await server.client();
  await warm.mailboxOpen('INBOX', { readOnly: true });
  await warm.fetchAll('1:*', { uid: true, envelope: true });
  await warm.logout();

  const dbFile = join(outDir, `profile-imap-sync-${count}.sqlite`);
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(dbFile);
  const accountId = Number(
    db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'bench')").run().lastInsertRowid,
  );
  const started = performance.now();
  const summary = await syncAccount(db, loginFor(server, accountId, 'bench'));
  const seconds = (performance.now() - started) / 1000;
  db.close();
  console.log(
    JSON.stringify({
      bench: 'profile-imap-sync',
      added: summary.added,
      seconds: round(seconds),
      perSecond: round(summary.added / seconds),
    }),
  );
} finally {
  await server.stop();
}
