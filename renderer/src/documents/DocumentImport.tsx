import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';

// Paths typed one per line, as in the mail import dialog: the renderer cannot read files itself.
export function DocumentImport() {
  const pathsText = useDocumentsStore((state) => state.pathsText);
  const importing = useDocumentsStore((state) => state.importing);
  const error = useDocumentsStore((state) => state.importError);
  const setPathsText = useDocumentsStore((state) => state.setPathsText);
  const importPaths = useDocumentsStore((state) => state.importPaths);

  return (
    <section className="documents-section" aria-label="Import documents">
      <h3>Import documents</h3>
      <label className="field">
        <span>Paths on this computer, one per line: .txt, .md, .pdf, .docx files</span>
        <textarea
          data-testid="documents-paths"
          rows={3}
          spellCheck={false}
          placeholder={'/home/me/handbook.pdf\n/home/me/notes.docx'}
          value={pathsText}
          onChange={(event) => setPathsText(event.target.value)}
        />
      </label>
      {error && (
        <p className="warning" role="alert" data-testid="documents-import-error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="primary"
          data-testid="documents-import"
          disabled={importing}
          onClick={() => void importPaths()}
        >
          {importing ? 'Importing…' : 'Import'}
        </button>
      </div>
      <ImportResultView />
    </section>
  );
}

function ImportResultView() {
  const result = useDocumentsStore((state) => state.result);
  if (result === null) return null;
  return (
    <ul className="documents-result" data-testid="documents-result">
      {result.imported.map((doc) => (
        <li key={`i${doc.id}`} data-testid="documents-imported">
          {doc.duplicate
            ? `${displayText(doc.name)}: already imported`
            : `${displayText(doc.name)}: imported, ${doc.chunks} ${doc.chunks === 1 ? 'chunk' : 'chunks'}`}
        </li>
      ))}
      {result.failed.map((failure) => (
        <li key={`f${failure.path}`} className="warning" data-testid="documents-failed">
          {displayText(failure.reason)}
        </li>
      ))}
    </ul>
  );
}
