// The search's own thread with its own read connection (DESIGN §3, issue 18): a search never holds the main
// thread, so the bridge keeps answering during a big query, an import's batch or a sync. WAL lets this
// connection read while another writes; it sees what was committed when each search starts.
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchHit } from '../../../shared/contract/index.ts';
import { openDatabase } from '../../db/open.ts';
import { prepareSearch, type SearchOrder, SearchQueryError } from './search.ts';

export type SearchWorkerData = { dbFile: string };
export type SearchRequest = { seq: number; text: string; limit: number; order: SearchOrder };
export type SearchReply =
  | { seq: number; ok: true; hits: SearchHit[] }
  /** `reason` set: a SearchQueryError, its sentence for the user; otherwise a fault, its text for the log. */
  | { seq: number; ok: false; reason?: SearchQueryError['reason']; message: string };

const { dbFile } = workerData as SearchWorkerData;
// The main connection has migrated the file already; this one only reads.
const search = prepareSearch(openDatabase(dbFile));

parentPort?.on('message', (r: SearchRequest) => {
  let reply: SearchReply;
  try {
    reply = { seq: r.seq, ok: true, hits: search(r.text, r.limit, r.order) };
  } catch (e) {
    reply =
      e instanceof SearchQueryError
        ? { seq: r.seq, ok: false, reason: e.reason, message: e.message }
        : { seq: r.seq, ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  parentPort?.postMessage(reply);
});
