import { useEffect } from 'react';
import { Modal } from '../app/Modal.tsx';
import { formatDay } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useUnsubscribeStore } from '../stores/unsubscribe-store.ts';

// Beside the sender (issue 29 §3): Unsubscribe, when the message offers a way Skimmer uses, or when that sender was
// unsubscribed from, on which day. Nothing happens before the confirmation that names where it goes.
export function UnsubscribeButton({ message }: { message: number }) {
  const offer = useUnsubscribeStore((state) => state.offers[message]);
  const running = useUnsubscribeStore((state) => state.running === message);
  const load = useUnsubscribeStore((state) => state.load);
  const ask = useUnsubscribeStore((state) => state.ask);

  useEffect(() => {
    void load(message);
  }, [load, message]);

  if (!offer) return null;
  if (offer.unsubscribed) {
    return (
      <span className="unsubscribed" data-testid="message-unsubscribed">
        Unsubscribed on {formatDay(offer.unsubscribed.at)}
      </span>
    );
  }
  if (!offer.target) return null;
  return (
    <button
      type="button"
      className="ghost small unsubscribe"
      data-testid="message-unsubscribe"
      disabled={running}
      onClick={() => ask(message)}
    >
      {running ? 'Unsubscribing…' : 'Unsubscribe'}
    </button>
  );
}

/** What failed for this message's unsubscribe, in Skimmer's sentence. */
export function UnsubscribeFailure({ message }: { message: number }) {
  const error = useUnsubscribeStore((state) => state.errors[message]);
  if (!error) return null;
  return (
    <p className="warning" role="alert" data-testid="message-unsubscribe-error">
      {error}
    </p>
  );
}

// SECURITY: the person sees exactly where the request or the email goes before anything is sent.
export function UnsubscribeConfirm() {
  const message = useUnsubscribeStore((state) => state.confirming);
  const target = useUnsubscribeStore((state) =>
    state.confirming === null ? null : (state.offers[state.confirming]?.target ?? null),
  );
  const dismiss = useUnsubscribeStore((state) => state.dismiss);
  const confirm = useUnsubscribeStore((state) => state.confirm);
  if (message === null || !target || target.method === 'http') return null;
  const where =
    target.method === 'one-click' ? (
      <>
        Unsubscribe by sending a request to <strong>{displayText(target.host)}</strong>?
      </>
    ) : (
      <>
        Unsubscribe by sending an email to <strong>{target.to.map(displayText).join(', ')}</strong>?
      </>
    );
  return (
    <Modal label="Unsubscribe" testId="unsubscribe-confirm" onEscape={dismiss}>
      <h2>Unsubscribe</h2>
      <p data-testid="unsubscribe-confirm-where">{where}</p>
      <p className="muted">
        {target.method === 'one-click'
          ? 'Skimmer sends it itself, with nothing about you but the request (no cookies, no browser).'
          : 'It waits in the outbox first: you can undo it there.'}
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={dismiss} data-testid="unsubscribe-confirm-cancel">
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void confirm()}
          data-testid="unsubscribe-confirm-send"
        >
          {target.method === 'one-click' ? 'Send request' : 'Queue email'}
        </button>
      </div>
    </Modal>
  );
}
