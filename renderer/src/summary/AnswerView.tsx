import { useEffect, useRef } from 'react';
import { type AskPlace, type SummaryAsk, useSummaryStore } from '../stores/summary-store.ts';
import { GroundedAnswer } from './GroundedAnswer.tsx';

const threadOnly = (ask: SummaryAsk) => ask.messageIds === undefined && ask.documentIds === undefined;

// What the label promises: the citations exist in what was asked about, nothing about their truth (DESIGN §10).
function checkedLabel(ask: SummaryAsk): string {
  return threadOnly(ask)
    ? 'Citations were checked to exist in this thread, not checked to be true.'
    : 'Citations were checked to exist in the chosen messages and documents, not checked to be true.';
}

// A cached answer is reused only while what it was asked over is unchanged (DESIGN §10).
const cachedLabel = (ask: SummaryAsk) =>
  threadOnly(ask)
    ? 'From earlier (the thread has not changed)'
    : 'From earlier (the messages and documents asked about have not changed)';

// The wait with Stop, the stop note, the error with Retry and the checked answer with its chips, for the
// answer shown in `place` (the reader's panel or the Documents dialog). Stop takes the focus as the wait
// starts, so Esc stops at once wherever the owner handles it.
export function AnswerView({ place, messageIds }: { place: AskPlace; messageIds: readonly number[] }) {
  const running = useSummaryStore((s) => (s.running?.ask.place === place ? s.running : null));
  const result = useSummaryStore((s) => (s.result?.ask.place === place ? s.result : null));
  const error = useSummaryStore((s) => (s.error?.ask.place === place ? s.error : null));
  const stoppedNote = useSummaryStore((s) => (s.stoppedPlace === place ? s.stoppedNote : null));
  const refresh = useSummaryStore((s) => s.refresh);
  const stop = useSummaryStore((s) => s.stop);
  const showMessage = useSummaryStore((s) => s.showMessage);
  const showDocument = useSummaryStore((s) => s.showDocument);
  const stopButton = useRef<HTMLButtonElement>(null);
  const waiting = running !== null;

  useEffect(() => {
    if (waiting) stopButton.current?.focus();
  }, [waiting]);

  return (
    <>
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
          <GroundedAnswer
            view={result.view}
            messageIds={messageIds}
            onShow={showMessage}
            onShowDocument={showDocument}
          />
          <p className="summary-label" data-testid="summary-label">
            {result.view.cited ? checkedLabel(result.ask) : 'Uncited draft: the model gave no citations.'}
          </p>
          {result.view.note && (
            <p className="summary-note muted" data-testid="summary-note">
              {result.view.note}
            </p>
          )}
          {result.view.cached && (
            <p className="summary-cached muted" data-testid="summary-cached">
              {cachedLabel(result.ask)}{' '}
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
    </>
  );
}
