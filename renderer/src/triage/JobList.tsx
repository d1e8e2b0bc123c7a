import { useMailStore } from '../stores/mail-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { jobText, scopeText } from './triage-text.ts';

// Recent jobs with their state; a paused one can be resumed from here, also after a restart.
export function JobList() {
  const jobs = useTriageStore((state) => state.jobs);
  const jobsError = useTriageStore((state) => state.jobsError);
  const sets = useTriageStore((state) => state.sets);
  const status = useTriageStore((state) => state.status);
  const resume = useTriageStore((state) => state.resume);
  const cancel = useTriageStore((state) => state.cancel);
  const folders = useMailStore((state) => state.folders);
  const folderName = (id: number) => folders.find((f) => f.id === id)?.name ?? `#${id}`;

  return (
    <section className="triage-jobs">
      <h3>Recent jobs</h3>
      {jobsError && (
        <p className="hint-problem" role="alert">
          {jobsError}
        </p>
      )}
      {jobs.length === 0 ? (
        <p className="muted">No triage has run yet.</p>
      ) : (
        <ul className="triage-job-list">
          {jobs.slice(0, 20).map((job) => (
            <li key={job.id} className="triage-job" data-testid="triage-job" data-state={job.state}>
              <span className="triage-job-what">
                {sets.find((s) => s.id === job.setId)?.name ?? 'Removed set'} · {job.model} ·{' '}
                {scopeText(job.scope, folderName)}
              </span>
              <span className="muted">{jobText(job)}</span>
              {job.error && <span className="hint-problem">{job.error}</span>}
              {job.state === 'paused' && (
                <button
                  type="button"
                  className="ghost"
                  disabled={status !== 'idle'}
                  onClick={() => void resume(job.id)}
                >
                  Resume
                </button>
              )}
              {(job.state === 'paused' || job.state === 'running') && (
                <button type="button" className="ghost" onClick={() => void cancel(job.id)}>
                  Cancel
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
