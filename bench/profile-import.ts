// The import without its worker, so `node --cpu-prof` sees every function it runs on one thread:
//
//   node --cpu-prof --cpu-prof-dir=bench/out/profile bench/profile-import.ts [--count 20000] [--small]
//   node bench/cpuprofile-top.ts bench/out/profile/<file>.cpuprofile
//
// Same code path as the worker (runImport on its own connection), minus postMessage.
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { userPlaces } from '../electron/files/safe-open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { ensureCorpus, outDir } from './corpus.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, small: { type: 'boolean', default: false } },
});
const { mbox } = ensureCorpus(Number(values.count), values.small);
const dbFile = `${outDir}profile-import.sqlite`;
for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
const db = openDatabase(dbFile);
const started = performance.now();
// The corpus is in bench/out, inside the checkout, which need not be one of the user's places.
const places = userPlaces({ extraRoots: [outDir] });
const result = await runImport(db, [mbox], { isCancelled: () => false, onProgress: () => {}, places });
const seconds = (performance.now() - started) / 1000;
db.close();
console.log(
  JSON.stringify({
    bench: 'profile-import',
    imported: result.summary.imported,
    failed: result.summary.failed.length,
    seconds: round(seconds),
    perSecond: round(result.summary.imported / seconds),
  }),
);
