import { useMemo } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { type SearchTerm, searchTerms } from './search-terms.ts';

const none: SearchTerm[] = [];

/** The terms of the search shown, while its results are: what the open message and the snippets mark. */
export function useSearchTerms(): readonly SearchTerm[] {
  const query = useMailStore((state) => (state.hits === null ? null : state.searchedQuery));
  return useMemo(() => (query ? searchTerms(query) : none), [query]);
}
