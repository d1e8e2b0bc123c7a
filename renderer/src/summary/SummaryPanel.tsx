import { type KeyboardEvent, useEffect, useRef } from 'react';
import '../styles/summary.css';
import { useSummaryStore } from '../stores/summary-store.ts';
import { GroundedAnswer } from './GroundedAnswer.tsx';

// "Summarize" and "Ask about this thread" for the open conversation (issue 7). Skimmer loads the messages by
// the thread's id (DESIGN §10); this panel only names the thread, the model and the question. Esc stops a
// wait while the focus is in the panel (Stop takes the focus), so it never clashes with the reader's keys.
export function SummaryPanel({ threadId, messageIds }: { threadId: number; messageIds: readonly number[] }) {
  const openThread = useSummaryStore((s) => s.openThread);
  const current = useSummaryStore((s) => s.threadId === threadId);
  const model = useSummaryStore((s) => s.model);
  const modelNote = useSummaryStore((s) => s.modelNote);
  const question = useSummaryStore((s) => s.question);
  const running = useSummaryStore((s) => s.running);
  const result = useSummaryStore((s) => s.result);
  const error = useSummaryStore((s) => s.error);
  const stoppedNote = useSummaryStore((s) => s.stoppedNote);
  const setModel = useSummaryStore((s) => s.setModel);
  const setQuestion = useSummaryStore((s) => s.setQuestion);
  const summarize = useSummaryStore((s) => s.summarize);
  const ask = useSummaryStore((s) => s.ask);
  const refresh = useSummaryStore((s) => s.refresh);
  const stop = useSummaryStore((s) => s.stop);
  const showMessage = useSummaryStore((s) => s.showMessage);

  const stopButton = useRef<HTMLButtonElement>(null);
  const waiting = running !== null;

  useEffect(() => {
    openThread(threadId);
  }, [openThread, threadId]);
  // Summarize turns disabled as the wait starts, which would drop the focus: Stop takes it, so Esc works at once.
  useEffect(() => {
    if (waiting) stopButton.current?.focus();
  }, [waiting]);
  if (!current) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || running === null) return;
    // The reader's own Esc (clearing a search) waits: this one ends the wait first.
    event.preventDefault();
    void stop();
  };

  return (
    <section className="summary-panel" aria-label="Summary" data-testid="summary-panel" onKeyDown={onKeyDown}>
      <div className="summary-controls">
        <label className="summary-model">
          <span>Model</span>
          <input
            data-testid="summary-model"
            value={model}
            placeholder="service/model"
            maxLength={300}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setModel(event.target.value)}
          />
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
            aria-label="Ask about this thread"
            placeholder="Ask about this thread"
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
      {modelNote && (
        <p className="hint-problem" data-testid="summary-model-note">
          {modelNote}
        </p>
      )}
      {running && (
        <p className="summary-status" aria-live="polite" data-testid="summary-running">
          {running.stopping ? 'Stopping…' : 'Summarising…'}{' '}
          <button
            type="button"
            className="small"
            data-testid="summary-stop"
            ref={stopButton}
            onClick={() => void stop()}
          >
            Stop
          </button>
        </p>
      )}
      {stoppedNote && (
        <p className="muted" data-testid="summary-stopped">
          {stoppedNote}
        </p>
      )}
      {error && (
        <div className="summary-error" role="alert" data-testid="summary-error">
          <p data-testid="summary-error-message">{error.failure.message}</p>
          <button type="button" className="small" data-testid="summary-retry" onClick={() => void refresh()}>
            Retry
          </button>
        </div>
      )}
      {result && (
        <div className="summary-result" data-testid="summary-result">
          {result.ask.question !== undefined && (
            <p className="summary-question muted" data-testid="summary-question-shown">
              Asked: <span>{result.ask.question}</span>
            </p>
          )}
          <GroundedAnswer view={result.view} messageIds={messageIds} onShow={showMessage} />
          <p className="summary-label" data-testid="summary-label">
            {result.view.cited
              ? 'Citations were checked to exist in this thread, not checked to be true.'
              : 'Uncited draft: the model gave no citations.'}
          </p>
          {result.view.cached && (
            <p className="summary-cached muted" data-testid="summary-cached">
              From earlier (the thread has not changed){' '}
              <button
                type="button"
                className="small"
                data-testid="summary-refresh"
                onClick={() => void refresh()}
              >
                Refresh
              </button>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
