import { useEffect, useRef } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { useSelectionStore } from '../stores/selection-store.ts';

// Full-text search (SQLite FTS5 syntax: words, "exact phrases", OR, NOT, prefix*) over mail and the imported
// documents. Enter runs it, Esc clears the selection of its results, else the search.
export function SearchBox() {
  const query = useMailStore((state) => state.query);
  const focusTick = useMailStore((state) => state.searchFocusTick);
  const setQuery = useMailStore((state) => state.setQuery);
  const runSearch = useMailStore((state) => state.runSearch);
  const clearSearch = useMailStore((state) => state.clearSearch);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusTick === 0) return;
    input.current?.focus();
    input.current?.select();
  }, [focusTick]);

  return (
    <div className="search-box">
      <input
        ref={input}
        type="search"
        data-testid="search-input"
        aria-label="Search mail and documents"
        placeholder='Search: words, "phrases", OR, NOT, prefix*'
        maxLength={500}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void runSearch();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            // As everywhere in the mail view, Esc clears the selection before it clears the search.
            const selection = useSelectionStore.getState();
            if (selection.current() !== null) return selection.clear();
            clearSearch();
            input.current?.blur();
          }
        }}
      />
    </div>
  );
}
