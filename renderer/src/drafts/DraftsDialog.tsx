import { undoWindowText } from '../../../shared/undo-window.ts';
import { Modal } from '../app/Modal.tsx';
import { useDraftsStore } from '../stores/drafts-store.ts';
import '../styles/drafts.css';
import { DraftEditor } from './DraftEditor.tsx';
import { DraftList } from './DraftList.tsx';

// The "Drafts" screen (issue 4): drafts the assistant wrote (create_draft), the user's to edit, send or
// discard. Opening it reads the list again, since a chat run may have added one.
export function DraftsDialog() {
  const open = useDraftsStore((state) => state.open);
  const count = useDraftsStore((state) => state.drafts.length);
  const loading = useDraftsStore((state) => state.loading);
  const listError = useDraftsStore((state) => state.listError);
  const onEscape = useDraftsStore((state) => state.escape);
  const close = useDraftsStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Drafts" testId="drafts-dialog" onEscape={onEscape} className="drafts-dialog">
      <div className="dialog-title">
        <h2>Drafts</h2>
        <button type="button" className="ghost" data-testid="drafts-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        Drafts the assistant wrote for you, and sends you undid. Nothing is sent until you press Send, and
        then you have {undoWindowText} to undo it.
      </p>
      {listError && (
        <p className="warning" role="alert" data-testid="drafts-error">
          {listError}
        </p>
      )}
      {count === 0 ? (
        !listError && (
          <p className="drafts-empty muted" data-testid="drafts-empty">
            {loading
              ? 'Loading the drafts…'
              : 'No drafts. Ask the assistant to draft a reply and it shows here.'}
          </p>
        )
      ) : (
        <div className="drafts-panes">
          <DraftList />
          <DraftEditor />
        </div>
      )}
    </Modal>
  );
}
