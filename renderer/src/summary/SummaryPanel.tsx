import { type KeyboardEvent, useEffect } from 'react';
import { ModelInput } from '../models/ModelInput.tsx';
import '../styles/summary.css';
import { useSummaryStore } from '../stores/summary-store.ts';
import { AnswerView } from './AnswerView.tsx';
import { AskSources } from './AskSources.tsx';

// "Summarize", "Ask about this thread" (+ documents added below it) and "Ask about selection" for the open
// conversation (issue 7). Skimmer loads the messages and documents by id (DESIGN §10); this panel only names
// them, the model and the question. Esc stops a wait while the focus is in the panel (Stop takes the focus),
// so it never clashes with the reader's keys.
export function SummaryPanel({ threadId, messageIds }: { threadId: number; messageIds: readonly number[] }) {
  const openThread = useSummaryStore((s) => s.openThread);
  const current = useSummaryStore((s) => s.threadId === threadId);
  const model = useSummaryStore((s) => s.model);
  const modelNote = useSummaryStore((s) => s.modelNote);
  const question = useSummaryStore((s) => s.question);
  const running = useSummaryStore((s) => s.running);
  const hasDocuments = useSummaryStore((s) => s.documents.length > 0);
  const setModel = useSummaryStore((s) => s.setModel);
  const setQuestion = useSummaryStore((s) => s.setQuestion);
  const summarize = useSummaryStore((s) => s.summarize);
  const ask = useSummaryStore((s) => s.ask);
  const stop = useSummaryStore((s) => s.stop);

  useEffect(() => {
    openThread(threadId);
  }, [openThread, threadId]);
  if (!current) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || running === null) return;
    // The reader's own Esc (clearing a search) waits: this one ends the wait first.
    event.preventDefault();
    void stop();
  };
  const about = hasDocuments ? 'Ask about this thread and the documents' : 'Ask about this thread';

  return (
    <section className="summary-panel" aria-label="Summary" data-testid="summary-panel" onKeyDown={onKeyDown}>
      <div className="summary-controls">
        <label className="summary-model">
          <span>Model</span>
          <ModelInput task="summary" testId="summary-model" value={model} onChange={setModel} />
        </label>
        <button
          type="button"
          className="small"
          data-testid="summary-start"
          disabled={running !== null}
          onClick={() => void summarize()}
        >
          Summarize
        </button>
        <form
          className="summary-ask"
          onSubmit={(event) => {
            event.preventDefault();
            void ask();
          }}
        >
          <input
            data-testid="summary-question"
            aria-label={about}
            placeholder={about}
            value={question}
            maxLength={2000}
            onChange={(event) => setQuestion(event.target.value)}
          />
          <button
            type="submit"
            className="small"
            data-testid="summary-ask"
            disabled={running !== null || question.trim() === ''}
          >
            Ask
          </button>
        </form>
      </div>
      <AskSources />
      {modelNote && (
        <p className="hint-problem" data-testid="summary-model-note">
          {modelNote}
        </p>
      )}
      <AnswerView place="reader" messageIds={messageIds} />
    </section>
  );
}
