import { useTriageStore } from '../stores/triage-store.ts';
import { estimateText, jobText, progressText } from './triage-text.ts';

// The estimate before Start, then the job this page follows: its progress with rate and time left, Stop
// (a pause: what is done stays done), Resume and Cancel.
export function RunPanel() {
  const estimate = useTriageStore((state) => state.estimate);
  const estimating = useTriageStore((state) => state.estimating);
  const estimateError = useTriageStore((state) => state.estimateError);
  const status = useTriageStore((state) => state.status);
  const job = useTriageStore((state) => state.job);
  const progress = useTriageStore((state) => state.progress);
  const runError = useTriageStore((state) => state.runError);
  const start = useTriageStore((state) => state.start);
  const stop = useTriageStore((state) => state.stop);
  const resume = useTriageStore((state) => state.resume);
  const cancel = useTriageStore((state) => state.cancel);
  const busy = status !== 'idle';
  const shown = progress && job && progress.jobId === job.id ? progress : job;

  return (
    <section className="triage-run" aria-live="polite">
      <p data-testid="triage-estimate" className="triage-estimate">
        {estimateError ? (
          <span className="hint-problem">{estimateError}</span>
        ) : estimate ? (
          estimateText(estimate)
        ) : estimating ? (
          'Estimating…'
        ) : (
          'Pick a question set and which messages.'
        )}
      </p>
      <div className="triage-actions">
        <button
          type="button"
          data-testid="triage-start"
          disabled={busy || !estimate || estimate.messages === 0}
          onClick={() => void start()}
        >
          {status === 'starting' ? 'Starting…' : 'Start'}
        </button>
        {(status === 'running' || status === 'stopping') && (
          <button
            type="button"
            data-testid="triage-stop"
            disabled={status === 'stopping'}
            onClick={() => void stop()}
          >
            {status === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        )}
        {job && !busy && job.state === 'paused' && (
          <button type="button" data-testid="triage-resume" onClick={() => void resume(job.id)}>
            Resume
          </button>
        )}
        {job && (job.state === 'paused' || job.state === 'running') && (
          <button
            type="button"
            className="ghost"
            data-testid="triage-cancel"
            onClick={() => void cancel(job.id)}
          >
            Cancel job
          </button>
        )}
      </div>
      {job && (
        <div
          className="triage-progress"
          data-testid="triage-progress"
          data-state={busy ? 'running' : job.state}
        >
          <progress max={Math.max(1, shown?.total ?? 0)} value={(shown?.done ?? 0) + (shown?.failed ?? 0)} />
          <span data-testid="triage-progress-text">
            {busy && progress && progress.jobId === job.id ? progressText(progress) : jobText(job)}
          </span>
        </div>
      )}
      {runError && (
        <p className="hint-problem" role="alert" data-testid="triage-error">
          {runError}
        </p>
      )}
    </section>
  );
}
