import { useEffect, useRef } from 'react';
import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useMailStore } from '../stores/mail-store.ts';

// Search hits replace the thread list until the search is cleared (Esc). At most 200, so not virtualized.
export function SearchResults() {
  const hits = useMailStore((state) => state.hits) ?? [];
  const hitCursor = useMailStore((state) => state.hitCursor);
  const searching = useMailStore((state) => state.searching);
  const searchError = useMailStore((state) => state.searchError);
  const openThreadId = useMailStore((state) => state.openThread?.id ?? null);
  const openHit = useMailStore((state) => state.openHit);
  const clearSearch = useMailStore((state) => state.clearSearch);
  const selected = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the cursor moves
  useEffect(() => {
    selected.current?.scrollIntoView({ block: 'nearest' });
  }, [hitCursor]);

  return (
    <div className="search-results">
      <div className="list-status">
        {searching
          ? 'Searching…'
          : searchError
            ? null
            : `${hits.length} ${hits.length === 1 ? 'result' : 'results'}`}
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
      </div>
    </div>
  );
}
