import { useSyncExternalStore } from 'react';

// Below this width (CSS px, so 150 % zoom of a 1,280 px screen counts as 853) the three panes do not fit
// side by side: the reader takes the list's place while a conversation is open, as Gmail's does.
// layout-narrow.css uses the same number.
const narrowQuery = '(max-width: 1069px)';

export function isNarrow(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(narrowQuery).matches;
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(narrowQuery);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrow);
}
