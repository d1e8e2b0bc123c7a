import type { ChatFailure } from '../stores/chat-store.ts';

// A failed turn: Skimmer's one sentence, and the provider's own words only behind "Details", as Skimmer
// redacted and capped them (DESIGN §6). Both are text: nothing in them is a link or loads anything.
export function ChatErrorBox({ error }: { error: ChatFailure }) {
  return (
    <div className="chat-error" role="alert" data-testid="chat-error">
      <p className="chat-error-message" data-testid="chat-error-message">
        {error.message}
      </p>
      {error.detail && (
        <details className="chat-error-detail" data-testid="chat-error-detail">
          <summary>Details</summary>
          <p className="muted">What the service said, with keys removed:</p>
          <pre>{error.detail}</pre>
        </details>
      )}
    </div>
  );
}
