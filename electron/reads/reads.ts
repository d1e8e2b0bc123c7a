// The reads that can take more than a few milliseconds on a big mailbox (DESIGN §3, issue 18): a search, a page of
// a folder's or view's conversations (its count is a pass over the folder's messages), a page of the list ordered
// by a triage answer, a conversation with every message and body (`mail:thread`, the assistant's read_thread),
// what a summary, a grounded answer or a drafted reply reads before it asks the model, and what a triage scope
// covers for its estimate and its rules' card. In the long-running app
// they run on the read thread (read-thread.ts) with its own connection, so the thread that answers the bridge is
// never held by them; a one-shot command runs them here. Each answer is plain data (it crosses to the main thread
// by structured clone), each refusal a typed error (thread-errors.ts `crossed`).

import type { ThreadSelection } from '../../shared/contract/index.ts';
import { prepareNamedSources } from '../ai/grounded/named-sources.ts';
import { prepareReplyRequests } from '../ai/grounded/reply-sources.ts';
import { prepareOrderedThreads } from '../ai/triage/ordered-threads.ts';
import { prepareRuleSuggestions } from '../ai/triage/rule-suggestions.ts';
import { prepareScopeMeasure, prepareScopeMessages } from '../ai/triage/scope-messages.ts';
import type { Db } from '../db/open.ts';
import { prepareQueries } from '../mail/store/queries.ts';
import { noCheck, prepareSearch, type ReadCheck, type SearchOrder } from '../mail/store/search.ts';
import { prepareSearchThreads } from '../mail/store/selection.ts';
import { prepareSelectionLabels } from '../mail/store/selection-labels.ts';

/**
 * `check` is asked as a search reads (mail/store/search.ts ReadCheck): on the read thread it ends a read at its
 * deadline or when a newer search replaced it (read-worker.ts); here, by default, nothing stops a search.
 */
export function prepareReads(db: Db, check: ReadCheck = noCheck) {
  const queries = prepareQueries(db);
  const ordered = prepareOrderedThreads(db);
  const rules = prepareRuleSuggestions(db, prepareScopeMessages(db));
  const search = prepareSearch(db);
  const searchThreads = prepareSearchThreads(db);
  const selectionLabels = prepareSelectionLabels(db, () => queries.folders());
  // A search scope read here keeps its own deadline (selection.ts) rather than none.
  const scopeCheck = check === noCheck ? undefined : check;
  return {
    /**
     * `lane`: where the search comes from. On the read thread a newer search from the same lane (the search box's
     * `mail:search`) replaces one still waiting or running (read-thread.ts); here one search runs at a time anyway.
     */
    search: (text: string, limit: number, order?: SearchOrder, _lane?: string) =>
      search(text, limit, order, check),
    threads: (...args: Parameters<typeof queries.threads>) => queries.threads(...args),
    orderedThreads: (...args: Parameters<typeof ordered.page>) => ordered.page(...args),
    /** A conversation with all its messages, oldest first; null when there is none with that id. */
    thread: (threadId: number) => queries.thread(threadId),
    /** The mail and document chunks a summary or a question names (thread-answers.ts); throws when one is not there. */
    namedSources: prepareNamedSources(db),
    /** The thread, the message answered and your examples, for a drafted reply (reply-sources.ts). */
    replyRequest: prepareReplyRequests(db),
    /** How many messages and characters a triage job over a scope would send, for its estimate. */
    scopeMeasure: prepareScopeMeasure(db),
    /** The rules' card: per rule, the messages of a scope it would change (a pass over their answers). */
    ruleSuggestions: (...args: Parameters<typeof rules.suggest>) => rules.suggest(...args),
    /** The same messages by id alone, for Apply: what the approved rules may change right now. */
    ruleMatches: (...args: Parameters<typeof rules.matches>) => rules.matches(...args),
    /** The label picker's counts over a selection (a search's: every conversation that matches). */
    selectionLabels: (selection: ThreadSelection) => selectionLabels(selection, scopeCheck),
    /** Every conversation a search matches, for `mail:bulk` of "all that match" (selection.ts). */
    searchThreads: (query: string) => searchThreads(query, scopeCheck),
  };
}

export type Reads = ReturnType<typeof prepareReads>;
export type ReadName = keyof Reads;

/** A read as its callers take it: answered at once here, or as a promise from the read thread. */
export type ReadFn<N extends ReadName> = (
  ...args: Parameters<Reads[N]>
) => ReturnType<Reads[N]> | Promise<ReturnType<Reads[N]>>;

/** Some of the reads, as a module that needs only those takes them. */
export type SomeReads<N extends ReadName> = { [K in N]: ReadFn<K> };
