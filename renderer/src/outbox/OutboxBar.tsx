import { useOutboxStore } from '../stores/outbox-store.ts';
import { canUndo, outboxLine, returnedLine } from './outbox-text.ts';

// "Sending to ann@example.com in 8 s — Undo": messages on their way out, over both views, since a send
// approved in the chat may still be counting down when the user looks at the mail. A failed one says why and
// offers Retry, or "Back to drafts" to edit it first (nothing written is lost). Undo puts the message back in
// the drafts, and the bar says so, with a button that opens it there.
export function OutboxBar() {
  const items = useOutboxStore((state) => state.items);
  const now = useOutboxStore((state) => state.now);
  const busy = useOutboxStore((state) => state.busy);
  const cancel = useOutboxStore((state) => state.cancel);
  const retry = useOutboxStore((state) => state.retry);
  const dismiss = useOutboxStore((state) => state.dismiss);
  const returned = useOutboxStore((state) => state.returned);
  const openReturned = useOutboxStore((state) => state.openReturned);
  const closeReturned = useOutboxStore((state) => state.closeReturned);
  const shown = items.filter(
    (item) => item.state === 'queued' || item.state === 'sending' || item.state === 'failed',
  );
  if (shown.length === 0 && returned === null) return null;

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
              title="Do not send it: it goes back to your drafts"
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
      {returned && (
        <li
          className="outbox-item returned"
          data-testid="outbox-returned"
          data-draft-id={returned.draft}
          role="status"
        >
          <span className="outbox-text" data-testid="outbox-returned-text">
            {returnedLine(returned.to)}
          </span>
          <button type="button" className="small" data-testid="outbox-open-draft" onClick={openReturned}>
            Open draft
          </button>
          <button
            type="button"
            className="ghost small"
            data-testid="outbox-returned-close"
            aria-label="Close this note"
            onClick={closeReturned}
          >
            Close
          </button>
        </li>
      )}
    </ul>
  );
}
