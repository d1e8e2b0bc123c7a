// What `skimmer search` runs on (DESIGN §13): the data folder's database, the two searches and their channels,
// and nothing of the rest of the app (app.ts). A search of an empty mailbox is a whole process: loading every
// service, and every channel's schemas, was two thirds of it (issue 18: the command line starts in under
// 150 ms). The searches are the app's own (search.ts, documents.ts) behind the same dispatch, so the command
// and the app answer a query alike.
import { documentChannels } from '../shared/contract/documents.ts';
import { mailChannels } from '../shared/contract/mail.ts';
import type { HandlersOf } from './bridge/dispatch-on.ts';
import { searchHandlers } from './bridge/handlers/search.ts';
import { openDataFolder } from './data-folder.ts';
import { prepareDocuments } from './documents/documents.ts';
import { userPlaces } from './files/safe-open.ts';
import type { Log } from './log.ts';
import { prepareSearch } from './mail/store/search.ts';

const searchChannels = {
  'mail:search': mailChannels['mail:search'],
  'documents:search': documentChannels['documents:search'],
} as const;

export type SearchReader = {
  channels: typeof searchChannels;
  handlers: HandlersOf<typeof searchChannels>;
  log: Log;
  close(): void;
};

export function openSearchReader(dataDir: string): SearchReader {
  const { db, log } = openDataFolder(dataDir);
  try {
    // SECURITY: the same rule as the app's (app.ts): the user's own places, never the data folder. A search
    // opens no file, but the documents' store takes its places whatever it is asked.
    const documents = prepareDocuments(db, userPlaces({ dataDir }));
    const search = prepareSearch(db);
    // One search a process: nothing to replace, and the command waits for its answer.
    const handlers = searchHandlers({
      search: (text, limit, order) => search(text, limit, order),
      documents,
    });
    return { channels: searchChannels, handlers, log, close: () => db.close() };
  } catch (e) {
    db.close();
    throw e;
  }
}
