import type { MessageView } from '../../../shared/contract/index.ts';
import { useMailStore } from '../stores/mail-store.ts';

// A change to this message that its mail server refused (a move, a read flag): Skimmer's sentence, and Retry,
// which queues it again for the background sync.
export function SyncErrorNote({ message }: { message: Pick<MessageView, 'id' | 'syncError'> }) {
  const retried = useMailStore((state) => state.retried.has(message.id));
  const retrySync = useMailStore((state) => state.retrySync);
  if (message.syncError === null) return null;
  return (
    <div className="sync-error" role="alert" data-testid="sync-error">
      <span className="sync-error-text">{message.syncError}</span>
      {retried ? (
        <span className="muted" data-testid="sync-retried">
          Queued again: the next sync tries once more.
        </span>
      ) : (
        <button
          type="button"
          className="small"
          data-testid="sync-retry"
          onClick={() => void retrySync(message.id)}
        >
          Retry
        </button>
      )}
    </div>
  );
}
