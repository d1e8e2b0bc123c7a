import { useState } from 'react';
import type { AuditView } from '../../../shared/contract/index.ts';
import { prettyArgs } from '../chat/tool-call-summary.ts';
import { untrustedPreview } from '../chat/untrusted-preview.ts';
import { formatFullDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { decidedByText, decisionText, effectText, provenanceText } from './audit-text.ts';

// Every tool call the assistant made, newest first: when, which tool, what was decided and by whom, what
// came of it, what in it came from an email, and the arguments on request. All of it is text.
function ActivityRow({ entry }: { entry: AuditView }) {
  const [showArgs, setShowArgs] = useState(false);
  const provenance = provenanceText(entry.provenance);
  return (
    <li
      className={`activity-row decision-${entry.decision}`}
      data-testid="activity-row"
      data-tool={entry.tool}
      data-decision={entry.decision}
      data-decided-by={entry.decidedBy}
    >
      <div className="activity-head">
        <time className="muted">{formatFullDate(entry.at)}</time>
        <code className="tool-name">{entry.tool}</code>
        <span className="muted">{effectText[entry.effect]}</span>
        {entry.jobId !== null && <span className="muted">{`triage job ${entry.jobId}`}</span>}
        {entry.client !== null && (
          <span className="muted" data-testid="activity-client">
            {displayText(`asked by an outside agent: ${entry.client}`)}
          </span>
        )}
        <span className="activity-decision" data-testid="activity-decision">
          {`${decisionText[entry.decision]} ${decidedByText[entry.decidedBy]}`}
        </span>
      </div>
      {entry.resultSummary !== '' && (
        // A read's result can be mail itself: shown short, as text, like every other string here.
        <p className={`activity-result${entry.isError ? ' failed' : ''}`} data-testid="activity-result">
          {displayText(untrustedPreview(entry.resultSummary, 2, 240).text)}
        </p>
      )}
      {provenance && (
        <p className="from-email-mark activity-provenance" data-testid="provenance-mark">
          {displayText(provenance)}
        </p>
      )}
      <button
        type="button"
        className="ghost small"
        aria-expanded={showArgs}
        onClick={() => setShowArgs(!showArgs)}
      >
        {showArgs ? 'Hide arguments' : 'Show arguments'}
      </button>
      {showArgs && (
        <pre className="approval-args" data-testid="activity-args">
          {prettyArgs(entry.args)}
        </pre>
      )}
    </li>
  );
}

export function ActivityList() {
  const audit = usePermissionsStore((state) => state.audit);
  const error = usePermissionsStore((state) => state.auditError);
  const loading = usePermissionsStore((state) => state.loading);

  return (
    <section className="permissions-section" aria-label="Activity">
      <h3>Activity</h3>
      {error && (
        <p className="warning" role="alert">
          {error}
        </p>
      )}
      {loading && audit.length === 0 && <p className="muted">Loading the activity…</p>}
      {!loading && !error && audit.length === 0 && (
        <p className="muted" data-testid="activity-empty">
          The assistant has not used any mail tool yet.
        </p>
      )}
      {audit.length > 0 && (
        <ol className="activity-list">
          {audit.map((entry) => (
            <ActivityRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}
