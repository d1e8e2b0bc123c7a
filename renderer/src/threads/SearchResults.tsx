import { type MouseEvent, type RefObject, useEffect, useRef } from 'react';
import type { SearchHit } from '../../../shared/contract/index.ts';
import { formatListDate } from '../format/format-time.ts';
import { RowLabels } from '../labels/RowLabels.tsx';
import { displayText } from '../mail/display-text.ts';
import { senderLabel } from '../mail/sender-label.ts';
import { Marked } from '../search/Marked.tsx';
import { useSearchTerms } from '../search/use-search-terms.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { hitChecked } from '../stores/search-selection.ts';
import { useSelectionStore } from '../stores/selection-store.ts';
import { SearchSelectionBar } from './SearchSelectionBar.tsx';

// Search hits replace the thread list until the search is cleared (Esc). At most 200, so not virtualized. The
// imported documents that match follow the mail as their own group (issue 7), in the same j/k/Enter list. The
// mail hits' conversations can be selected and acted on together (SearchSelectionBar.tsx); documents cannot.
export function SearchResults() {
  const hits = useMailStore((state) => state.hits) ?? [];
  const documentCount = useMailStore((state) => state.documentHits.length);
  const hitCursor = useMailStore((state) => state.hitCursor);
  const searching = useMailStore((state) => state.searching);
  const searchError = useMailStore((state) => state.searchError);
  const openThreadId = useMailStore((state) => state.openThread?.id ?? null);
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
      <SearchSelectionBar />
      {searchError && (
        <p className="list-error" role="alert">
          {searchError}
        </p>
      )}
      <div className="hit-list" role="listbox" aria-label="Search results">
        {hits.map((hit, index) => (
          <MailHit
            key={hit.id}
            hit={hit}
            index={index}
            cursorRef={index === hitCursor ? selected : undefined}
            atCursor={index === hitCursor}
            open={hit.threadId === openThreadId}
          />
        ))}
        <DocumentHits first={hits.length} selected={selected} />
      </div>
    </div>
  );
}

type MailHitProps = {
  hit: SearchHit;
  index: number;
  cursorRef: RefObject<HTMLDivElement | null> | undefined;
  atCursor: boolean;
  open: boolean;
};

// One message that matches. Its checkbox selects its conversation (so every hit of that conversation shows
// checked); Shift-click takes a range, Ctrl/Cmd-click adds or removes one, as in the list (ThreadRow.tsx); a
// plain click opens the conversation at the message.
function MailHit({ hit, index, cursorRef, atCursor, open }: MailHitProps) {
  const checked = useSelectionStore((state) => hitChecked(state, hit));
  const openHit = useMailStore((state) => state.openHit);
  const terms = useSearchTerms();
  const select = (event: MouseEvent, orOpen: boolean) => {
    const selection = useSelectionStore.getState();
    if (event.shiftKey) selection.extendToHit(index);
    else if (!orOpen || event.ctrlKey || event.metaKey) selection.toggleHit(index);
    else openHit(index);
  };
  const classes = ['hit', atCursor && 'selected', open && 'open', checked && 'checked'];
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled for the whole list (keyboard/shortcuts.ts)
    <div
      ref={cursorRef}
      role="option"
      tabIndex={-1}
      aria-selected={atCursor}
      className={classes.filter(Boolean).join(' ')}
      data-testid="search-hit"
      data-thread-id={hit.threadId}
      data-message-id={hit.id}
      data-checked={checked ? 'true' : undefined}
      // A Shift-click selects hits, not the text between them.
      onMouseDown={(event) => {
        if (event.shiftKey) event.preventDefault();
      }}
      onClick={(event) => select(event, true)}
    >
      <div className="row-top">
        <input
          type="checkbox"
          className="row-check"
          data-testid="hit-check"
          aria-label="Select"
          tabIndex={-1}
          checked={checked}
          onChange={() => {}}
          onClick={(event) => {
            event.stopPropagation();
            select(event, false);
          }}
        />
        <span className="participants" title={displayText(hit.from)}>
          {displayText(senderLabel(hit.from))}
        </span>
        <time>{formatListDate(hit.date)}</time>
      </div>
      <div className="row-subject">{displayText(hit.subject) || '(no subject)'}</div>
      <div className="row-snippet">
        {/* Its conversation's labels, as a list row shows them (issue 29 §4). */}
        <RowLabels threadId={hit.threadId} />
        <Marked text={displayText(hit.snippet)} terms={terms} />
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
