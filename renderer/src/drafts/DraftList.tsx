import { useDraftsStore } from '../stores/drafts-store.ts';
import { DraftRow } from './DraftRow.tsx';

// The drafts, newest edit first; a row opens its draft in the composer. The assistant may have written them,
// perhaps from an email, and a reply quotes one: subjects and addresses are shown as text, with direction
// controls removed.
export function DraftList() {
  const drafts = useDraftsStore((state) => state.drafts);

  return (
    <ul className="draft-list" aria-label="Drafts">
      {drafts.map((draft) => (
        <DraftRow key={draft.id} draft={draft} testId="draft-row" />
      ))}
    </ul>
  );
}
