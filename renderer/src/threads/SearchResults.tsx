import { type RefObject, useEffect, useRef } from 'react';
import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useMailStore } from '../stores/mail-store.ts';

// Search hits replace the thread list until the search is cleared (Esc). At most 200, so not virtualized. The
// imported documents that match follow the mail as their own group (issue 7), in the same j/k/Enter list.
export function SearchResults() {
  const hits = useMailStore((state) => state.hits) ?? [];
  const documentCount = useMailStore((state) => state.documentHits.length);
  const hitCursor = useMailStore((state) => state.hitCursor);
  const searching = useMailStore((state) => state.searching);
  const searchError = useMailStore((state) => state.searchError);
  const openThreadId = useMailStore((state) => state.openThread?.id ?? null);
  const openHit = useMailStore((state) => state.openHit);
  const clearSearch = useMailStore((state) => state.clearSearch);
  const selected = useRef<HTMLDivElement>(null);
  const count = hits.length + documentCount;

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the cursor moves
  useEffect(() => {
    selected.current?.scrollIntoView({ block: 'nearest' });
  }, [hitCursor]);

  return (
    <div className="search-results">
      <div className="list-status">
        {searching ? 'Searching…' : searchError ? null : `${count} ${count === 1 ? 'result' : 'results'}`}
        <button type="button" className="ghost" onClick={clearSearch}>
          Clear (Esc)
        </button>
      </div>
      {searchError && (
        <p className="list-error" role="alert">
          {searchError}
        </p>
      )}
      <div className="hit-list" role="listbox" aria-label="Search results">
        {hits.map((hit, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled for the whole list (keyboard/shortcuts.ts)
          <div
            key={hit.id}
            ref={index === hitCursor ? selected : undefined}
            role="option"
            tabIndex={-1}
            aria-selected={index === hitCursor}
            className={`hit${index === hitCursor ? ' selected' : ''}${hit.threadId === openThreadId ? ' open' : ''}`}
            data-testid="search-hit"
            data-thread-id={hit.threadId}
            data-message-id={hit.id}
            onClick={() => openHit(index)}
          >
            <div className="row-top">
              <span className="participants">{displayText(hit.from)}</span>
              <time>{formatListDate(hit.date)}</time>
            </div>
            <div className="row-subject">{displayText(hit.subject) || '(no subject)'}</div>
            <div className="row-snippet">{displayText(hit.snippet)}</div>
          </div>
        ))}
        <DocumentHits first={hits.length} selected={selected} />
      </div>
    </div>
  );
}

// The document hits sit at cursor positions `first` onwards. Names and snippets come from the user's files:
// React text only, direction controls removed, as in the Documents dialog (DESIGN §12). The group shows only
// when there is something to show, so a search in a mailbox without documents looks as it always did.
function DocumentHits({ first, selected }: { first: number; selected: RefObject<HTMLDivElement | null> }) {
  const hits = useMailStore((state) => state.documentHits);
  const error = useMailStore((state) => state.documentSearchError);
  const hitCursor = useMailStore((state) => state.hitCursor);
  const openHit = useMailStore((state) => state.openHit);
  const openChunkId = useDocumentsStore((state) => state.page?.chunkId ?? null);
  if (hits.length === 0 && error === null) return null;

  return (
    <fieldset className="hit-group" data-testid="search-documents">
      <legend className="hit-group-title">Documents</legend>
      {error && (
        <p className="list-error" role="alert" data-testid="search-documents-error">
          {error}
        </p>
      )}
      {hits.map((hit, at) => {
        const index = first + at;
        return (
          // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled for the whole list (keyboard/shortcuts.ts)
          <div
            key={hit.id}
            ref={index === hitCursor ? selected : undefined}
            role="option"
            tabIndex={-1}
            aria-selected={index === hitCursor}
            className={`hit${index === hitCursor ? ' selected' : ''}${hit.id === openChunkId ? ' open' : ''}`}
            data-testid="search-document-hit"
            data-document-id={hit.documentId}
            data-chunk-id={hit.id}
            onClick={() => openHit(index)}
          >
            <div className="row-top">
              <span className="participants">{displayText(hit.name)}</span>
              <span className="hit-location">{hit.location}</span>
            </div>
            <div className="row-snippet">{displayText(hit.snippet)}</div>
          </div>
        );
      })}
    </fieldset>
  );
}
