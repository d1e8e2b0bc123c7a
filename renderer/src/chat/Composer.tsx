import { useEffect, useRef } from 'react';
import { useChatStore } from '../stores/chat-store.ts';

// The message box: Enter sends, Shift+Enter starts a new line. While an answer streams, Send becomes Stop
// (Esc works too, from anywhere in the chat view: keyboard/shortcuts.ts); typing the next message goes on.
export function Composer() {
  const draft = useChatStore((state) => state.draft);
  const error = useChatStore((state) => state.composerError);
  const status = useChatStore((state) => state.live?.status ?? null);
  const focusTick = useChatStore((state) => state.focusTick);
  const setDraft = useChatStore((state) => state.setDraft);
  const send = useChatStore((state) => state.send);
  const stop = useChatStore((state) => state.stop);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (focusTick > 0) input.current?.focus();
  }, [focusTick]);

  return (
    <form
      className="composer"
      aria-label="Message"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {error && (
        <p className="warning" role="alert" data-testid="chat-composer-error">
          {error}
        </p>
      )}
      <textarea
        ref={input}
        data-testid="chat-input"
        aria-label="Message"
        placeholder="Ask something…"
        rows={3}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          // Not while an input method is composing: its Enter confirms the composition.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-actions">
        <span className="composer-hint">Enter sends · Shift+Enter new line · Esc stops an answer</span>
        {status === null ? (
          <button type="submit" className="primary" data-testid="chat-send" disabled={draft.trim() === ''}>
            Send
          </button>
        ) : (
          <button
            type="button"
            className="danger"
            data-testid="chat-stop"
            disabled={status === 'stopping'}
            onClick={() => void stop()}
          >
            {status === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        )}
      </div>
    </form>
  );
}
