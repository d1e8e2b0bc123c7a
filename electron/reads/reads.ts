// The reads that can take more than a few milliseconds on a big mailbox (DESIGN §3, issue 18): a search, a page of
// a folder's or view's conversations (its count is a pass over the folder's messages), and a page of the list
// ordered by a triage answer. In the long-running app they run on the read thread (read-thread.ts) with its own
// connection, so the thread that answers the bridge is never held by them; a one-shot command runs them here.
import { prepareOrderedThreads } from '../ai/triage/ordered-threads.ts';
import type { Db } from '../db/open.ts';
import { prepareQueries } from '../mail/store/queries.ts';
import { prepareSearch } from '../mail/store/search.ts';

export function prepareReads(db: Db) {
  const queries = prepareQueries(db);
  const ordered = prepareOrderedThreads(db);
  return {
    search: prepareSearch(db),
    threads: (...args: Parameters<typeof queries.threads>) => queries.threads(...args),
    orderedThreads: (...args: Parameters<typeof ordered.page>) => ordered.page(...args),
  };
}

export type Reads = ReturnType<typeof prepareReads>;
export type ReadName = keyof Reads;

/** A read as its callers take it: answered at once here, or as a promise from the read thread. */
export type ReadFn<N extends ReadName> = (
  ...args: Parameters<Reads[N]>
) => ReturnType<Reads[N]> | Promise<ReturnType<Reads[N]>>;
