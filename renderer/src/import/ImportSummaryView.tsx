import { useImportStore } from '../stores/import-store.ts';

export function ImportSummaryView() {
  const summary = useImportStore((state) => state.summary);
  const cancelled = useImportStore((state) => state.cancelled);
  if (!summary) return null;

  return (
    <div className="import-summary" data-testid="import-summary">
      {cancelled && <p className="warning">Import cancelled. Messages imported before the stop are kept.</p>}
      <dl className="progress-figures">
        <dt>Imported</dt>
        <dd data-testid="import-imported">{summary.imported.toLocaleString()}</dd>
        <dt>Duplicates skipped</dt>
        <dd data-testid="import-duplicates">{summary.duplicates.toLocaleString()}</dd>
        <dt>Failed</dt>
        <dd data-testid="import-failed">{summary.failed.length.toLocaleString()}</dd>
      </dl>
      {summary.failed.length > 0 && (
        <details open={summary.failed.length <= 10}>
          <summary>Why {summary.failed.length === 1 ? 'one message' : 'some messages'} failed</summary>
          <ul className="failures">
            {summary.failed.map((failure, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once the import is done
              <li key={index}>
                <code>{failure.source}</code>: {failure.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
