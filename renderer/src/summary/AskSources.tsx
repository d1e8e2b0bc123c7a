import { useEffect } from 'react';
import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useSummaryStore } from '../stores/summary-store.ts';

// What else the reader's Ask reads: imported documents picked here ("this thread + these documents"), and
// the messages checked with "Select" on their cards, from any thread, for "Ask about selection". Each is a
// chip with a remove button; the page names them by id only (DESIGN §10).
export function AskSources() {
  const imported = useDocumentsStore((s) => s.documents);
  const loadDocuments = useDocumentsStore((s) => s.load);
  const documents = useSummaryStore((s) => s.documents);
  const selection = useSummaryStore((s) => s.selection);
  const running = useSummaryStore((s) => s.running);
  const question = useSummaryStore((s) => s.question);
  const addDocument = useSummaryStore((s) => s.addDocument);
  const removeDocument = useSummaryStore((s) => s.removeDocument);
  const toggleMessage = useSummaryStore((s) => s.toggleMessage);
  const clearSelection = useSummaryStore((s) => s.clearSelection);
  const askSelection = useSummaryStore((s) => s.askSelection);

  useEffect(() => {
    void loadDocuments();
  }, [loadDocuments]);
  const addable = imported.filter((d) => !documents.some((c) => c.id === d.id));

  return (
    <div className="summary-sources">
      {(imported.length > 0 || documents.length > 0) && (
        <div className="summary-source-row" data-testid="summary-documents">
          <span className="muted">Documents</span>
          {documents.map((d) => (
            <span key={d.id} className="summary-chip" data-testid="summary-document" data-document-id={d.id}>
              <span className="summary-chip-text">{displayText(d.name)}</span>
              <button
                type="button"
                className="ghost small"
                aria-label={`Remove ${displayText(d.name)}`}
                data-testid="summary-document-remove"
                onClick={() => removeDocument(d.id)}
              >
                ×
              </button>
            </span>
          ))}
          {addable.length > 0 && (
            <select
              data-testid="summary-add-document"
              aria-label="Add a document to the question"
              value=""
              onChange={(event) => {
                const doc = addable.find((d) => d.id === Number(event.target.value));
                if (doc) addDocument({ id: doc.id, name: doc.name });
              }}
            >
              <option value="">Add a document…</option>
              {addable.map((d) => (
                <option key={d.id} value={d.id}>
                  {displayText(d.name)}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      {selection.length > 0 && (
        <div className="summary-source-row" data-testid="summary-selection">
          <span className="muted">Selected</span>
          {selection.map((m) => (
            <span key={m.id} className="summary-chip" data-testid="summary-selected" data-message-id={m.id}>
              <span className="summary-chip-text">{displayText(m.label)}</span>
              <button
                type="button"
                className="ghost small"
                aria-label={`Remove ${displayText(m.label)}`}
                data-testid="summary-selected-remove"
                onClick={() => toggleMessage(m)}
              >
                ×
              </button>
            </span>
          ))}
          <button
            type="button"
            className="small"
            data-testid="summary-ask-selection"
            title="Asks the question above about exactly the selected messages (and any documents added)"
            disabled={running !== null || question.trim() === ''}
            onClick={() => void askSelection()}
          >
            Ask about selection
          </button>
          <button
            type="button"
            className="ghost small"
            data-testid="summary-clear-selection"
            onClick={clearSelection}
          >
            Clear
          </button>
        </div>
      )}
    </div>
  );
}
