import { ChooseButtons } from '../files/ChooseButtons.tsx';
import { FileBrowser } from '../files/FileBrowser.tsx';
import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useFilePickStore } from '../stores/file-pick-store.ts';

// Files chosen with the system dialog (desktop) or Skimmer's own browser of your folders (browser mode); a path
// can still be typed, one per line, for those who know it.
export function DocumentImport() {
  const pathsText = useDocumentsStore((state) => state.pathsText);
  const importing = useDocumentsStore((state) => state.importing);
  const error = useDocumentsStore((state) => state.importError);
  const setPathsText = useDocumentsStore((state) => state.setPathsText);
  const importPaths = useDocumentsStore((state) => state.importPaths);
  const chooseAndImport = useDocumentsStore((state) => state.chooseAndImport);
  const browsing = useFilePickStore((state) => state.browsing === 'documents');

  return (
    <section className="documents-section" aria-label="Import documents">
      <h3>Import documents</h3>
      {browsing ? (
        <FileBrowser purpose="documents" what="files" />
      ) : (
        <div className="path-chooser">
          <p className="muted">.txt, .md, .pdf and .docx files.</p>
          <ChooseButtons
            purpose="documents"
            testId="documents-choose"
            disabled={importing}
            onChoose={() => void chooseAndImport()}
          />
          <details className="type-a-path">
            <summary data-testid="documents-type-path">Type a path</summary>
            <label className="field">
              <span>Paths on this computer, one per line</span>
              <textarea
                data-testid="documents-paths"
                rows={3}
                spellCheck={false}
                placeholder={'/home/me/handbook.pdf\n/home/me/notes.docx'}
                value={pathsText}
                onChange={(event) => setPathsText(event.target.value)}
              />
            </label>
            <div className="dialog-actions">
              <button
                type="button"
                data-testid="documents-import"
                disabled={importing}
                onClick={() => void importPaths()}
              >
                {importing ? 'Importing…' : 'Import typed paths'}
              </button>
            </div>
          </details>
        </div>
      )}
      {error && (
        <p className="warning" role="alert" data-testid="documents-import-error">
          {error}
        </p>
      )}
      {importing && <p className="muted">Importing…</p>}
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
