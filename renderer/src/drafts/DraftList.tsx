import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { recipientsText } from '../outbox/outbox-text.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';

// The drafts, newest edit first; a row opens its draft in the composer. The assistant may have written them,
// perhaps from an email, and a reply quotes one: subjects and addresses are shown as text, with direction
// controls removed.
export function DraftList() {
  const drafts = useDraftsStore((state) => state.drafts);
  const openDraft = useDraftsStore((state) => state.openDraft);

  return (
    <ul className="draft-list" aria-label="Drafts">
      {drafts.map((draft) => (
        <li key={draft.id}>
          <button
            type="button"
            className="draft-row"
            data-testid="draft-row"
            data-draft-id={draft.id}
            onClick={() => void openDraft(draft.id)}
          >
            <span className="draft-subject">
              {draft.subject ? displayText(draft.subject) : '(no subject)'}
            </span>
            <span className="draft-to">
              {draft.to.length > 0 ? `To ${recipientsText(draft.to)}` : 'No recipient yet'}
            </span>
            <time className="draft-time" dateTime={new Date(draft.updatedAt).toISOString()}>
              {formatListDate(draft.updatedAt)}
            </time>
          </button>
        </li>
      ))}
    </ul>
  );
}
