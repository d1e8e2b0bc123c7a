// The searches of the bridge: the mail's (`mail:search`, one hit per conversation) and the documents' chunks
// (`documents:search`). A file of their own, so a command that only searches (search-reader.ts) builds these
// and nothing else; the app spreads them beside the other channels.
import type { SearchHit } from '../../../shared/contract/index.ts';
import type { prepareDocuments } from '../../documents/documents.ts';
import type { SearchOrder } from '../../mail/store/search.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  /**
   * On the read thread in the long-running app (reads/read-thread.ts), on this one in a command. `lane`: a newer
   * search from the same lane replaces one still running there.
   */
  search: (
    text: string,
    limit: number,
    order: SearchOrder,
    lane?: string,
  ) => SearchHit[] | Promise<SearchHit[]>;
  documents: Pick<ReturnType<typeof prepareDocuments>, 'search'>;
};

export function searchHandlers({
  search,
  documents,
}: Deps): Pick<Handlers, 'mail:search' | 'documents:search'> {
  return {
    // The search box's: the page shows the newest answer alone (renderer latest-only.ts), so a newer search stops
    // the one before it rather than waiting behind it.
    'mail:search': (r) => search(r.query, r.limit, r.order, 'mail:search'),
    'documents:search': (r) =>
      documents.search(r.query, r.limit).map((c) => ({
        id: c.id,
        documentId: c.documentId,
        name: c.title.split(', ')[0] ?? '',
        location: c.location,
        snippet: c.snippet,
      })),
  };
}
