import { undoWindowText } from '../../../shared/undo-window.ts';
import { Modal } from '../app/Modal.tsx';
import { useDraftsStore } from '../stores/drafts-store.ts';
import '../styles/drafts.css';
import { DraftList } from './DraftList.tsx';

// The "Drafts" screen: drafts the user left in the composer, sends they undid, and drafts the assistant wrote
// (create_draft), each to open in the composer and edit, send or discard there. Opening it reads the list
// again, since a chat run may have added one.
export function DraftsDialog() {
  const open = useDraftsStore((state) => state.open);
  const count = useDraftsStore((state) => state.drafts.length);
  const loading = useDraftsStore((state) => state.loading);
  const listError = useDraftsStore((state) => state.listError);
  const close = useDraftsStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Drafts" testId="drafts-dialog" onEscape={close} className="drafts-dialog">
      <div className="dialog-title">
        <h2>Drafts</h2>
        <button type="button" className="ghost" data-testid="drafts-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        Mail you started, sends you undid, and drafts the assistant wrote for you. Open one to go on writing.
        Nothing is sent until you press Send, and then you have {undoWindowText} to undo it.
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
              : 'No drafts. Mail you start writing (c) and drafts the assistant writes show here.'}
          </p>
        )
      ) : (
        <DraftList />
      )}
    </Modal>
  );
}
