import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { recipientsText } from '../outbox/outbox-text.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';

// The drafts, newest edit first. The assistant wrote them, perhaps from an email: subjects and addresses are
// shown as text, with direction controls removed.
export function DraftList() {
  const drafts = useDraftsStore((state) => state.drafts);
  const openId = useDraftsStore((state) => state.openId);
  const busy = useDraftsStore((state) => state.busy);
  const select = useDraftsStore((state) => state.select);

  return (
    <ul className="draft-list" aria-label="Drafts">
      {drafts.map((draft) => (
        <li key={draft.id}>
          <button
            type="button"
            className="draft-row"
            data-testid="draft-row"
            data-draft-id={draft.id}
            aria-current={draft.id === openId ? 'true' : undefined}
            disabled={busy !== null}
            onClick={() => void select(draft.id)}
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
