import { formatBytes } from '../format/format-size.ts';
import { formatFullDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';

export function DocumentList() {
  const documents = useDocumentsStore((state) => state.documents);
  const error = useDocumentsStore((state) => state.listError);
  const checked = useDocumentsStore((state) => state.checked);
  const toggleChecked = useDocumentsStore((state) => state.toggleChecked);

  return (
    <section className="documents-section" aria-label="Imported documents">
      <h3>Imported documents</h3>
      {error && (
        <p className="warning" role="alert" data-testid="documents-list-error">
          {error}
        </p>
      )}
      {documents.length === 0 ? (
        !error && (
          <p className="muted" data-testid="documents-empty">
            No documents yet.
          </p>
        )
      ) : (
        <table className="documents-table" data-testid="documents-list">
          <thead>
            <tr>
              <th>Ask</th>
              <th>Name</th>
              <th>Kind</th>
              <th>Size</th>
              <th>Chunks</th>
              <th>Imported</th>
            </tr>
          </thead>
          <tbody>
            {documents.map((doc) => (
              <tr key={doc.id} data-testid="document-row" data-document-id={doc.id}>
                <td>
                  <input
                    type="checkbox"
                    data-testid="document-select"
                    aria-label={`Ask about ${displayText(doc.name)}`}
                    checked={checked.includes(doc.id)}
                    onChange={() => toggleChecked(doc.id)}
                  />
                </td>
                <td className="documents-name">{displayText(doc.name)}</td>
                <td>{doc.kind}</td>
                <td>{formatBytes(doc.size)}</td>
                <td>{doc.chunks}</td>
                <td>{formatFullDate(doc.importedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
