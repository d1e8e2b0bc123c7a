import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';

// Hits are text only: the snippet is the document's words, never markup. Names and snippets come from the
// user's files, so direction controls are removed as for mail (DESIGN §12, mail/display-text.ts).
export function DocumentSearch() {
  const query = useDocumentsStore((state) => state.query);
  const searching = useDocumentsStore((state) => state.searching);
  const hits = useDocumentsStore((state) => state.hits);
  const error = useDocumentsStore((state) => state.searchError);
  const setQuery = useDocumentsStore((state) => state.setQuery);
  const search = useDocumentsStore((state) => state.search);

  return (
    <section className="documents-section" aria-label="Search documents">
      <h3>Search documents</h3>
      <form
        className="documents-search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <input
          type="search"
          data-testid="documents-query"
          aria-label="Search documents"
          placeholder="Words in the documents"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="submit" data-testid="documents-search" disabled={searching || query.trim() === ''}>
          {searching ? 'Searching…' : 'Search'}
        </button>
      </form>
      {error && (
        <p className="warning" role="alert" data-testid="documents-search-error">
          {error}
        </p>
      )}
      {hits !== null &&
        (hits.length === 0 ? (
          <p className="muted" data-testid="documents-no-hits">
            No document matches.
          </p>
        ) : (
          <ul className="documents-hits">
            {hits.map((hit) => (
              <li key={hit.id} data-testid="document-hit" data-chunk-id={hit.id}>
                <div className="documents-hit-head">
                  <span className="documents-hit-name">{displayText(hit.name)}</span>
                  <span className="muted">{hit.location}</span>
                </div>
                <p className="documents-hit-snippet">{displayText(hit.snippet)}</p>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
