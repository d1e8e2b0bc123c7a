import type { DraftView } from '../../../shared/contract/index.ts';
import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { recipientsText } from '../outbox/outbox-text.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';

// One draft in a list (the Drafts dialog's, the list pane's Drafts view): its subject, recipients and last edit;
// a click opens it in the composer. The assistant may have written it, perhaps from an email: subjects and
// addresses are shown as text, with direction controls removed.
export function DraftRow({ draft, testId }: { draft: DraftView; testId: string }) {
  const openDraft = useDraftsStore((state) => state.openDraft);
  return (
    <li>
      <button
        type="button"
        className="draft-row"
        data-testid={testId}
        data-draft-id={draft.id}
        onClick={() => void openDraft(draft.id)}
      >
        <span className="draft-subject">{draft.subject ? displayText(draft.subject) : '(no subject)'}</span>
        <span className="draft-to">
          {draft.to.length > 0 ? `To ${recipientsText(draft.to)}` : 'No recipient yet'}
        </span>
        <time className="draft-time" dateTime={new Date(draft.updatedAt).toISOString()}>
          {formatListDate(draft.updatedAt)}
        </time>
      </button>
    </li>
  );
}
