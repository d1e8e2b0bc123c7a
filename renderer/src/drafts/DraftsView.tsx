import { useEffect } from 'react';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { DraftRow } from './DraftRow.tsx';
import '../styles/drafts.css';

// The Drafts view of the list pane (the folder list's Drafts, issue 16): the local drafts, newest edit first,
// each opening in the composer through the drafts store's `openDraft` (the one action every "open this draft"
// goes through). Subjects and addresses may come from mail: shown as text, direction controls removed.
export function DraftsView() {
  const drafts = useDraftsStore((state) => state.drafts);
  const loading = useDraftsStore((state) => state.loading);
  const listError = useDraftsStore((state) => state.listError);
  const load = useDraftsStore((state) => state.load);

  // Read again when the view opens: the assistant or another page may have written one since.
  useEffect(() => {
    void load();
  }, [load]);

  if (listError && drafts.length === 0) {
    return (
      <div className="list-status" role="alert">
        {listError}
      </div>
    );
  }
  if (drafts.length === 0) return <div className="list-status">{loading ? 'Loading…' : 'No drafts.'}</div>;

  return (
    <ul className="drafts-view" aria-label="Drafts">
      {drafts.map((draft) => (
        <DraftRow key={draft.id} draft={draft} testId="drafts-view-row" />
      ))}
    </ul>
  );
}
