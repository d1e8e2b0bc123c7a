import { useEffect, useRef } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { hitsHeaderCheck, offersAllMatching } from '../stores/search-selection.ts';
import { useSelectionStore } from '../stores/selection-store.ts';
import { SelectionToolbar } from './SelectionBar.tsx';

// The search results' header (DESIGN §12, "Several at once"), as the list's: a checkbox for the conversations
// shown, and while any is selected the count, the toolbar, and the offer to take every conversation that
// matches the search, not just those whose messages are among the hits shown (Gmail's "Select all
// conversations that match this search"). Document hits are not selectable.
export function SearchSelectionBar() {
  const hits = useMailStore((state) => state.hits) ?? [];
  const ids = useSelectionStore((state) => state.ids);
  const allInView = useSelectionStore((state) => state.allInView);
  const matching = useSelectionStore((state) => state.matching);
  const toggleShownHits = useSelectionStore((state) => state.toggleShownHits);
  const selectAllMatching = useSelectionStore((state) => state.selectAllMatching);
  const clear = useSelectionStore((state) => state.clear);
  const chosen = { ids, allInView };
  const check = hitsHeaderCheck(chosen, hits);
  const box = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (box.current) box.current.indeterminate = check === 'some';
  }, [check]);

  if (hits.length === 0) return null;
  const count = allInView
    ? matching === null
      ? 'All'
      : matching.toLocaleString()
    : ids.size.toLocaleString();
  const conversations = (n: number) => `${n.toLocaleString()} conversation${n === 1 ? '' : 's'}`;

  return (
    <div className="selection-bar" data-testid="search-selection-bar">
      <div className="selection-row">
        <input
          ref={box}
          type="checkbox"
          aria-label={check === 'all' ? 'Select none' : 'Select the conversations shown'}
          data-testid="select-shown-hits"
          checked={check === 'all'}
          onChange={toggleShownHits}
        />
        {allInView || ids.size > 0 ? (
          <>
            <span className="selection-count" data-testid="selection-count">
              {`${count} selected`}
            </span>
            {/* A search's hits come from any folder: Spam here; Not spam is the reader's, for a conversation
                whose messages are all in Spam (thread-selection.ts spamActionFor). */}
            <SelectionToolbar spam="spam" />
          </>
        ) : (
          <span className="muted">Select</span>
        )}
      </div>
      {offersAllMatching(chosen, hits) && (
        <button
          type="button"
          className="link-button"
          data-testid="select-all-matching"
          onClick={() => void selectAllMatching()}
        >
          Select all conversations that match this search
        </button>
      )}
      {allInView && (
        <span className="muted" data-testid="all-matching-selected">
          {matching === null
            ? 'All conversations that match this search are selected. '
            : `All ${conversations(matching)} that match this search are selected. `}
          <button type="button" className="link-button" onClick={clear}>
            Clear selection
          </button>
        </span>
      )}
    </div>
  );
}
