import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import { useMailStore } from '../stores/mail-store.ts';

// SECURITY (DESIGN §12): a link from mail opens only from here, after the user has seen the real URL.
export function LinkConfirm() {
  const pending = useMailStore((state) => state.pendingLink);
  const confirm = useMailStore((state) => state.confirmLink);
  const dismiss = useMailStore((state) => state.dismissLink);
  if (!pending) return null;
  const { verdict, text } = pending;
  const showText = text !== '' && text !== verdict.url;
  const title = verdict.openable
    ? (pending.purpose?.title ?? 'Open this link?')
    : 'This link cannot be opened';

  return (
    <Modal label={title} testId="link-confirm" onEscape={dismiss}>
      <h2>{title}</h2>
      <p className="muted">{verdict.openable ? 'It goes to this address:' : 'Its address is:'}</p>
      <code className="link-url" data-testid="link-confirm-url">
        {verdict.url || '(no address)'}
      </code>
      {verdict.openable && verdict.host && (
        <p>
          Site: <strong>{verdict.host}</strong>
        </p>
      )}
      {showText && (
        <p className="muted">
          The email shows it as: <q>{displayText(text)}</q>
        </p>
      )}
      {verdict.openable ? (
        verdict.warnings.map((warning) => (
          <p key={warning} className="warning">
            {warning}
          </p>
        ))
      ) : (
        <p className="warning">{verdict.reason}</p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={dismiss} data-testid="link-confirm-cancel">
          {verdict.openable ? 'Cancel' : 'Close'}
        </button>
        {verdict.openable && (
          <button
            type="button"
            className="primary"
            onClick={() => void confirm()}
            data-testid="link-confirm-open"
          >
            Open in browser
          </button>
        )}
      </div>
    </Modal>
  );
}
