import { useOutboxStore } from '../stores/outbox-store.ts';
import { canUndo, outboxLine } from './outbox-text.ts';

// "Sending to ann@example.com in 8 s — Undo": messages on their way out, over both views, since a send
// approved in the chat may still be counting down when the user looks at the mail. A failed one says why and
// offers Retry, or "Back to drafts" to edit it first (nothing written is lost).
export function OutboxBar() {
  const items = useOutboxStore((state) => state.items);
  const now = useOutboxStore((state) => state.now);
  const busy = useOutboxStore((state) => state.busy);
  const cancel = useOutboxStore((state) => state.cancel);
  const retry = useOutboxStore((state) => state.retry);
  const dismiss = useOutboxStore((state) => state.dismiss);
  const shown = items.filter(
    (item) => item.state === 'queued' || item.state === 'sending' || item.state === 'failed',
  );
  if (shown.length === 0) return null;

  return (
    <ul className="outbox-bar" aria-label="Outbox" data-testid="outbox-bar">
      {shown.map((item) => (
        <li
          key={item.id}
          className={`outbox-item ${item.state}`}
          data-testid="outbox-item"
          data-outbox-id={item.id}
          data-state={item.state}
          role={item.state === 'failed' ? 'alert' : 'status'}
        >
          <span className="outbox-text" data-testid="outbox-text">
            {outboxLine(item, now)}
          </span>
          {canUndo(item, now) && (
            <button
              type="button"
              className="small"
              data-testid="outbox-undo"
              disabled={busy.has(item.id)}
              onClick={() => void cancel(item.id)}
            >
              Undo
            </button>
          )}
          {item.state === 'failed' && (
            <>
              <button
                type="button"
                className="small"
                data-testid="outbox-retry"
                disabled={busy.has(item.id)}
                onClick={() => void retry(item.id)}
              >
                Retry
              </button>
              <button
                type="button"
                className="ghost small"
                data-testid="outbox-dismiss"
                disabled={busy.has(item.id)}
                onClick={() => void dismiss(item.id)}
              >
                Back to drafts
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
