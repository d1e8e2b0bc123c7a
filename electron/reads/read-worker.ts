// The read thread (DESIGN §3, issue 18), as Signal Desktop keeps its SQL off the main process's thread: its own
// connection answers the slow reads of reads.ts. WAL lets it read while the app's connection writes; it sees what
// was committed when each read starts. A typed error crosses as its class, reason and sentence, so the bridge
// maps it exactly as it would the one thrown on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/open.ts';
import { searchReplaced, searchTooSlow } from '../mail/store/search.ts';
import { type Failure, failureOf } from '../thread-errors.ts';
import { prepareReads, type ReadName } from './reads.ts';

export type ReadWorkerData = { dbFile: string; checkpointMs: number };
export type ReadRequest = {
  seq: number;
  name: ReadName;
  args: unknown[];
  /**
   * A bounded read (read-thread.ts `bounded`): how long it may run from when it starts here, and one shared
   * integer the main thread sets to 1 when a newer read replaced it. Shared memory, since a message posted to
   * this thread is read only after the read in progress ends.
   */
  bound?: { ms: number; replaced: Int32Array };
};
export type ReadReply = { seq: number; ok: true; value: unknown } | ({ seq: number; ok: false } & Failure);

const { dbFile, checkpointMs } = workerData as ReadWorkerData;

// The read in progress: its deadline (epoch ms) and its flag; an unbounded read never stops.
let running: { until: number; ms: number; replaced: Int32Array | null } = {
  until: Number.POSITIVE_INFINITY,
  ms: 0,
  replaced: null,
};
// Asked by the searches as they read (mail/store/search.ts ReadCheck): the typed error ends the read there.
const check = () => {
  if (running.replaced && Atomics.load(running.replaced, 0) !== 0) throw searchReplaced();
  if (Date.now() >= running.until) throw searchTooSlow(running.ms);
};

// The main connection has migrated the file already. This one reads, but for the warnings of a message stored
// before migration 0027, checked and kept the first time it is read (warning-store.ts `ensure`): a short write
// that waits out another connection's batch (busy_timeout) here, not on the main thread.
const db = openDatabase(dbFile);
const reads = prepareReads(db, check);

// This thread copies the WAL back into the database, so the main connection need not at its next commit (app.ts
// turns its autocheckpoint off): after a sync's batches that copy held the main thread 24–95 ms. A passive
// checkpoint waits for no reader or writer (SQLite, "wal_checkpoint") and copies what it can.
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Tried again at the next turn; a read that fails says why.
  }
}, checkpointMs).unref();

parentPort?.on('message', (r: ReadRequest) => {
  let reply: ReadReply;
  running = r.bound
    ? { until: Date.now() + r.bound.ms, ms: r.bound.ms, replaced: r.bound.replaced }
    : { until: Number.POSITIVE_INFINITY, ms: 0, replaced: null };
  try {
    // Replaced while it waited: answered without reading anything.
    if (r.bound) check();
    const read = reads[r.name] as (...args: unknown[]) => unknown;
    reply = { seq: r.seq, ok: true, value: read(...r.args) };
  } catch (e) {
    reply = { seq: r.seq, ok: false, ...failureOf(e) };
  } finally {
    running = { until: Number.POSITIVE_INFINITY, ms: 0, replaced: null };
  }
  parentPort?.postMessage(reply);
});
