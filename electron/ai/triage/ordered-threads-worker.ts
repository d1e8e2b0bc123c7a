// The ordered list's own thread with its own read connection (DESIGN §3, §9): ordering every conversation of
// a view by an answer is one pass over the question's answers (about 0.1 s at 20,000 messages), which never
// holds the thread that answers the bridge. WAL lets this connection read while another writes; every commit
// by another connection moves its data_version, so an ordering it keeps is read again after any change.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import { type OrderedPage, type OrderRequest, prepareOrderedThreads } from './ordered-threads.ts';

export type OrderedWorkerData = { dbFile: string };
export type OrderedRequest = { seq: number; request: OrderRequest };
export type OrderedReply =
  | { seq: number; ok: true; page: OrderedPage }
  /** `reason` set: an AssistantError, its sentence for the user; otherwise a fault, its text for the log. */
  | { seq: number; ok: false; reason?: AssistantError['reason']; message: string };

const { dbFile } = workerData as OrderedWorkerData;
// The main connection has migrated the file already; this one only reads.
const ordered = prepareOrderedThreads(openDatabase(dbFile));

parentPort?.on('message', (r: OrderedRequest) => {
  let reply: OrderedReply;
  try {
    reply = { seq: r.seq, ok: true, page: ordered.page(r.request) };
  } catch (e) {
    reply =
      e instanceof AssistantError
        ? { seq: r.seq, ok: false, reason: e.reason, message: e.message }
        : { seq: r.seq, ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  parentPort?.postMessage(reply);
});
