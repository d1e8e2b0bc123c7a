import { formatBytes } from '../format/format-size.ts';
import { formatDuration } from '../format/format-time.ts';
import { useImportStore } from '../stores/import-store.ts';

export function ImportProgressView() {
  const status = useImportStore((state) => state.status);
  const progress = useImportStore((state) => state.progress);
  const known = progress !== null && progress.bytesTotal > 0;

  return (
    <div className="import-progress" data-testid="import-progress" aria-live="polite">
      {/* No value while the size is unknown: the bar shows activity instead of a share. */}
      <progress
        max={known ? progress.bytesTotal : undefined}
        value={known ? Math.min(progress.bytesDone, progress.bytesTotal) : undefined}
        aria-label="Import progress"
      />
      {status === 'starting' && <p>Starting…</p>}
      {status === 'cancelling' && <p>Stopping the import…</p>}
      {progress && (
        <dl className="progress-figures">
          <dt>Messages</dt>
          <dd data-testid="import-messages">{progress.messages.toLocaleString()}</dd>
          <dt>Imported</dt>
          <dd>{progress.imported.toLocaleString()}</dd>
          <dt>Duplicates</dt>
          <dd>{progress.duplicates.toLocaleString()}</dd>
          <dt>Failed</dt>
          <dd>{progress.failed.toLocaleString()}</dd>
          <dt>Rate</dt>
          <dd>{Math.round(progress.perSecond).toLocaleString()} messages/s</dd>
          <dt>Read</dt>
          <dd>
            {formatBytes(progress.bytesDone)}
            {known && ` of ${formatBytes(progress.bytesTotal)}`}
          </dd>
          <dt>Time left</dt>
          <dd>
            {progress.etaSeconds === null ? 'estimating…' : `about ${formatDuration(progress.etaSeconds)}`}
          </dd>
        </dl>
      )}
    </div>
  );
}
