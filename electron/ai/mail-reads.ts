// What the assistant reads of the mail through the reads (issue 30, the layers of DESIGN §1): the tools' search
// and conversation, and what a summary or a question names. The type is the assistant's own port; the reads
// (electron/reads/, a layer above) provide it, on the read thread in the long-running app (so an answer may
// come as a promise) or here in a one-shot command.
import type { prepareQueries } from '../mail/store/queries.ts';
import type { prepareSearch, SearchOrder } from '../mail/store/search.ts';
import type { prepareNamedSources } from './grounded/named-sources.ts';

type Later<T> = T | Promise<T>;
type Search = ReturnType<typeof prepareSearch>;
type NamedSources = ReturnType<typeof prepareNamedSources>;

type AssistantReads = {
  search: (text: string, limit: number, order?: SearchOrder, lane?: string) => Later<ReturnType<Search>>;
  /** A conversation with all its messages, oldest first; null when there is none with that id. */
  thread: (threadId: number) => Later<ReturnType<ReturnType<typeof prepareQueries>['thread']>>;
  /** The mail and document chunks a summary or a question names; throws when one is not there. */
  namedSources: (...args: Parameters<NamedSources>) => Later<ReturnType<NamedSources>>;
};

/** Some of the reads, as a module that needs only those takes them. */
export type SomeAssistantReads<K extends keyof AssistantReads> = Pick<AssistantReads, K>;
