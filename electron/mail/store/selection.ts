// Which messages a selection of conversations is (DESIGN §11, "Several at once"): thread ids, or every
// thread of a folder, view or search, bounded by maxSelectedThreads, read in the caller's transaction so the
// change applies to exactly what was resolved. A move takes the messages the conversation has where it was
// selected (a folder, a view's folders), or all of them in All mail and a search; flags and labels always
// take the whole conversation, as the single actions do (renderer/src/stores/move-targets.ts).
//
// A search scope reads every match. In the long-running app the bridge asks the read thread for its conversations
// (`prepareSearchThreads`, reads/) and hands their ids here, so the main thread runs no search of the user's
// (red-team item 8: `a* OR b* …` held it 3.8 s); a search resolved here all the same stops at `searchScopeMs`.
import type { Folder, FolderPlace, ThreadSelection } from '../../../shared/contract/index.ts';
import { maxSelectedThreads } from '../../../shared/contract/index.ts';
import { inView } from '../../../shared/mail-views.ts';
import type { Db } from '../../db/open.ts';
import { MailError } from '../mail-error.ts';
import { deadline, prepareMessageSearch, type ReadCheck } from './search.ts';

// A search's matches read for "all of this search": far more than any mailbox Skimmer is measured on.
const searchedMessages = 5_000_000;
/** How long reading a search scope's matches may take (every match: `meeting`, 72,665 of 100,000, takes 0.2 s). */
export const searchScopeMs = 5_000;

type MessageRow = { id: number; thread_id: number; folder_id: number };

export type ResolvedSelection = {
  threads: number[];
  // Every message of those conversations.
  all: MessageRow[];
  // The ones a move takes (see above).
  leaving: MessageRow[];
  place: (folderId: number) => FolderPlace | null;
};

function tooMany(n: number): never {
  throw new MailError(
    'invalid',
    `That is ${n.toLocaleString('en')} conversations; at most ${maxSelectedThreads.toLocaleString('en')} can be changed at once.`,
  );
}

/**
 * Every conversation a search matches ("Select all conversations that match this search"), by id; more than one
 * batch may change is refused rather than cut (MailError), a query Skimmer cannot read or that `check` stops is a
 * SearchQueryError. `check` defaults to a deadline of `searchScopeMs`.
 */
export function prepareSearchThreads(db: Db) {
  const messageSearch = prepareMessageSearch(db);
  const threadsOfMessages = db
    .prepare<[string]>(
      'SELECT DISTINCT thread_id FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY thread_id',
    )
    .pluck();
  return (query: string, check: ReadCheck = deadline(searchScopeMs)): number[] => {
    const threads = threadsOfMessages.all(
      JSON.stringify(messageSearch(query, searchedMessages, check)),
    ) as number[];
    if (threads.length > maxSelectedThreads) tooMany(threads.length);
    return threads;
  };
}

export function prepareSelection(db: Db, folders: () => Folder[]) {
  const searchThreads = prepareSearchThreads(db);
  const threadExists = db.prepare<[number]>('SELECT 1 FROM threads WHERE id = ?').pluck();
  const threadsInFolders = db
    .prepare<[string]>(
      `SELECT DISTINCT thread_id FROM messages
        WHERE folder_id IN (SELECT value FROM json_each(?)) ORDER BY thread_id`,
    )
    .pluck();
  const messagesOf = db.prepare<[string], MessageRow>(
    `SELECT id, thread_id, folder_id FROM messages
      WHERE thread_id IN (SELECT value FROM json_each(?)) ORDER BY thread_id, date, id`,
  );

  /** `check` stops a search scope's reading (see prepareSearchThreads). */
  return function resolve(selection: ThreadSelection, check?: ReadCheck): ResolvedSelection {
    const all = folders();
    const places = new Map(all.map((f) => [f.id, f.place]));
    const { scope } = selection;
    // The folders a move leaves; null: the whole conversation moves.
    let leavingFolders: Set<number> | null;
    let scoped: () => number[];
    if ('folderId' in scope) {
      if (!places.has(scope.folderId)) throw new MailError('not_found', 'That folder is not in the mailbox.');
      leavingFolders = new Set([scope.folderId]);
      scoped = () => threadsInFolders.all(JSON.stringify([scope.folderId])) as number[];
    } else if ('view' in scope) {
      const inIt = all.filter((f) => inView(scope.view, f.place)).map((f) => f.id);
      leavingFolders = scope.view === 'all' ? null : new Set(inIt);
      scoped = () => threadsInFolders.all(JSON.stringify(inIt)) as number[];
    } else {
      leavingFolders = null;
      // Every match, so a search that matches too many conversations is refused rather than cut.
      scoped = () => searchThreads(scope.query, check);
    }
    let threads: number[];
    if (selection.threads) {
      threads = [...new Set(selection.threads)];
      for (const id of threads) {
        if (threadExists.get(id) === undefined)
          throw new MailError('not_found', 'A selected conversation is not in the mailbox any more.');
      }
    } else {
      threads = scoped();
    }
    if (threads.length > maxSelectedThreads) tooMany(threads.length);
    const rows = messagesOf.all(JSON.stringify(threads));
    return {
      threads,
      all: rows,
      leaving: leavingFolders === null ? rows : rows.filter((r) => leavingFolders.has(r.folder_id)),
      place: (folderId) => places.get(folderId) ?? null,
    };
  };
}
