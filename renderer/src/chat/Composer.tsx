import { useEffect, useRef } from 'react';
import { displayText } from '../mail/display-text.ts';
import { useChatStore } from '../stores/chat-store.ts';

// The message box: Enter sends, Shift+Enter starts a new line. While an answer streams, Send becomes Stop
// (Esc works too, from anywhere in the chat view: keyboard/shortcuts.ts); typing the next message goes on.
// Above it, the mail quoted with the message ("Ask in chat" in the reader); beside Send, whether the model may
// use the mail tools (reads run; every change waits for the user's approval, DESIGN §7).
export function Composer() {
  const draft = useChatStore((state) => state.draft);
  const error = useChatStore((state) => state.composerError);
  const status = useChatStore((state) => state.live?.status ?? null);
  // Skimmer answers one conversation at a time: one running elsewhere makes this one wait, and says so.
  const elsewhere = useChatStore(
    (state) =>
      state.live !== null && state.live.conversationId !== null && state.live.conversationId !== state.openId,
  );
  const openElsewhere = useChatStore((state) => state.openConversation);
  const liveConversation = useChatStore((state) => state.live?.conversationId ?? null);
  const focusTick = useChatStore((state) => state.focusTick);
  const tools = useChatStore((state) => state.tools);
  const quoted = useChatStore((state) => state.quoted);
  const setTools = useChatStore((state) => state.setTools);
  const unquote = useChatStore((state) => state.unquote);
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
      {elsewhere && (
        <p className="muted composer-waits" role="status" data-testid="chat-composer-waits">
          An answer is still coming in another conversation; this one can be sent when it ends.{' '}
          <button
            type="button"
            className="ghost small"
            data-testid="chat-go-to-running"
            onClick={() => liveConversation !== null && void openElsewhere(liveConversation)}
          >
            Go to it
          </button>
        </p>
      )}
      {quoted.length > 0 && (
        <ul className="quote-chips" aria-label="Quoted mail">
          {quoted.map((message) => (
            <li key={message.id} className="quote-chip" data-testid="quote-chip" data-message-id={message.id}>
              <span className="quote-chip-label">Quoting</span>
              <span className="quote-chip-subject">{displayText(message.subject) || '(no subject)'}</span>
              <span className="quote-chip-from">{displayText(message.from)}</span>
              <button
                type="button"
                className="ghost small"
                data-testid="quote-remove"
                aria-label={`Stop quoting “${displayText(message.subject)}”`}
                onClick={() => unquote(message.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
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
        <label
          className="tools-toggle"
          title="The model may search and read your mail; archiving, labelling, drafting, sending or deleting waits for your approval."
        >
          <input
            type="checkbox"
            data-testid="tools-toggle"
            checked={tools}
            onChange={(event) => setTools(event.target.checked)}
          />
          Mail tools
        </label>
        {status === null || elsewhere ? (
          <button
            type="submit"
            className="primary"
            data-testid="chat-send"
            disabled={draft.trim() === '' || elsewhere}
          >
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
