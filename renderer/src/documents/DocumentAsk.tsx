import { ModelInput } from '../models/ModelInput.tsx';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useSummaryStore } from '../stores/summary-store.ts';
import { AnswerView } from '../summary/AnswerView.tsx';

// "Ask about these documents": the documents checked in the list, a question and the model; the answer shows
// here as in the reader (chips open the cited page, the checked-not-true label, Retry, Stop). Skimmer picks
// the parts of the documents that match the question (DESIGN §10).
export function DocumentAsk() {
  const checked = useDocumentsStore((state) => state.checked);
  const question = useDocumentsStore((state) => state.question);
  const setQuestion = useDocumentsStore((state) => state.setQuestion);
  const model = useSummaryStore((state) => state.model);
  const modelNote = useSummaryStore((state) => state.modelNote);
  const running = useSummaryStore((state) => state.running);
  const setModel = useSummaryStore((state) => state.setModel);
  const askDocuments = useSummaryStore((state) => state.askDocuments);

  return (
    <section className="documents-section" aria-label="Ask about these documents">
      <h3>Ask about these documents</h3>
      <p className="muted" data-testid="documents-ask-count">
        {checked.length === 0
          ? 'Tick the documents to ask about in the list above.'
          : `${checked.length} ${checked.length === 1 ? 'document' : 'documents'} chosen.`}
      </p>
      <form
        className="documents-ask"
        onSubmit={(event) => {
          event.preventDefault();
          void askDocuments(checked, question);
        }}
      >
        <ModelInput
          task="summary"
          testId="documents-ask-model"
          ariaLabel="Model"
          value={model}
          onChange={setModel}
        />
        <input
          data-testid="documents-ask-question"
          aria-label="Question about the chosen documents"
          placeholder="Question about the chosen documents"
          value={question}
          maxLength={2000}
          onChange={(event) => setQuestion(event.target.value)}
        />
        <button
          type="submit"
          data-testid="documents-ask"
          disabled={running !== null || checked.length === 0 || question.trim() === ''}
        >
          Ask about these documents
        </button>
      </form>
      {modelNote && (
        <p className="hint-problem" data-testid="documents-ask-model-note">
          {modelNote}
        </p>
      )}
      <AnswerView place="documents" messageIds={[]} />
    </section>
  );
}
