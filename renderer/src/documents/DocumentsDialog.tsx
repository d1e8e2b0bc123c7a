import { Modal } from '../app/Modal.tsx';
import { useDocumentsStore } from '../stores/documents-store.ts';
import '../styles/documents.css';
import { DocumentImport } from './DocumentImport.tsx';
import { DocumentList } from './DocumentList.tsx';
import { DocumentSearch } from './DocumentSearch.tsx';

// The "Documents" screen (issue 7): files imported beside mail, their list, and a search over them.
export function DocumentsDialog() {
  const open = useDocumentsStore((state) => state.open);
  const close = useDocumentsStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Documents" testId="documents-dialog" onEscape={close} className="documents-dialog">
      <div className="dialog-title">
        <h2>Documents</h2>
        <button type="button" className="ghost" data-testid="documents-close" onClick={close}>
          Close
        </button>
      </div>
      <DocumentImport />
      <DocumentList />
      <DocumentSearch />
    </Modal>
  );
}
