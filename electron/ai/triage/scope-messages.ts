// What a triage scope covers (issue 6: a folder, a search or the whole mailbox), newest first: the one reading of a
// scope that a job, its estimate and the rules' card share, so they agree. Over a big scope both are slow (at
// 20,000 messages the estimate, each message's length, 75–110 ms; the card, each message's answers, 1.8–2.7 s),
// so both are reads of reads/reads.ts, on the read thread in the long-running app.
import type { TriageScope } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { prepareMessageSearch } from '../../mail/store/search.ts';
import { prepareQuestionSets } from './question-sets.ts';

/** A search scope covers at most this many messages, the newest first. */
const maxQueryMessages = 10_000;

/** The ids a scope covers, newest first; a query Skimmer cannot read throws SearchQueryError. */
export function prepareScopeMessages(db: Db): (scope: TriageScope) => number[] {
  const search = prepareMessageSearch(db);
  const mail = prepareMessageReads(db);
  return (scope) => {
    if (scope.kind === 'all') return mail.allIds();
    if (scope.kind === 'folder') return mail.folderIds(scope.folderId);
    // A query Skimmer cannot read throws SearchQueryError, whose sentence names what it could not read; the
    // bridge's one table makes it `invalid_request`.
    return search(scope.query, maxQueryMessages);
  };
}

/** How many messages a set would be asked about over a scope, and how many characters it would send for them. */
export type ScopeMeasure = { messages: number; chars: number };

/** Throws AssistantError when the set is not there, SearchQueryError for a query Skimmer cannot read. */
export function prepareScopeMeasure(db: Db): (setId: number, scope: TriageScope) => ScopeMeasure {
  const sets = prepareQuestionSets(db);
  const messagesIn = prepareScopeMessages(db);
  const mail = prepareMessageReads(db);
  // A message's text with about 200 characters for its headers and the prompt's framing around it.
  const textLength = (id: number) => mail.textLength(id) + 200;
  return (setId, scope) => {
    const questionChars = JSON.stringify(sets.get(setId).questions).length;
    const ids = messagesIn(scope);
    let chars = 0;
    for (const id of ids) chars += textLength(id) + questionChars;
    return { messages: ids.length, chars };
  };
}
