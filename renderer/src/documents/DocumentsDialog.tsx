import { Modal } from '../app/Modal.tsx';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useFilePickStore } from '../stores/file-pick-store.ts';
import { useSummaryStore } from '../stores/summary-store.ts';
import '../styles/documents.css';
import { DocumentAsk } from './DocumentAsk.tsx';
import { DocumentImport } from './DocumentImport.tsx';
import { DocumentList } from './DocumentList.tsx';
import { DocumentPage } from './DocumentPage.tsx';
import { DocumentSearch } from './DocumentSearch.tsx';

// The "Documents" screen (issue 7): files imported beside mail, their list, a question about the ticked ones,
// and a search over them. The page a document citation opens is shown from here too, over this dialog or
// over the reader, wherever the chip was.
export function DocumentsDialog() {
  return (
    <>
      <DocumentsModal />
      <DocumentPage />
    </>
  );
}

function DocumentsModal() {
  const open = useDocumentsStore((state) => state.open);
  const close = useDocumentsStore((state) => state.closeDialog);
  const asking = useSummaryStore((state) => state.running?.ask.place === 'documents');
  const stop = useSummaryStore((state) => state.stop);
  const browsing = useFilePickStore((state) => state.browsing === 'documents');
  const cancelBrowsing = useFilePickStore((state) => state.cancel);
  if (!open) return null;

  return (
    // Esc stops a question being answered first, else leaves the file browser; the next Esc closes the dialog.
    <Modal
      label="Documents"
      testId="documents-dialog"
      onEscape={asking ? () => void stop() : browsing ? cancelBrowsing : close}
      className="documents-dialog"
    >
      <div className="dialog-title">
        <h2>Documents</h2>
        <button type="button" className="ghost" data-testid="documents-close" onClick={close}>
          Close
        </button>
      </div>
      <DocumentImport />
      <DocumentList />
      <DocumentAsk />
      <DocumentSearch />
    </Modal>
  );
}
