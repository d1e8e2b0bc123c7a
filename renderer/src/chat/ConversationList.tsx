import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useChatStore } from '../stores/chat-store.ts';

// The stored conversations, newest first (at most the 500 that `chat:list` returns, so not virtualized).
export function ConversationList() {
  const conversations = useChatStore((state) => state.conversations);
  const listLoaded = useChatStore((state) => state.listLoaded);
  const listError = useChatStore((state) => state.listError);
  const openId = useChatStore((state) => state.openId);
  const answeringIn = useChatStore((state) => state.live?.conversationId ?? null);
  const openConversation = useChatStore((state) => state.openConversation);
  const newConversation = useChatStore((state) => state.newConversation);

  return (
    <nav className="conversation-pane" aria-label="Conversations">
      <button type="button" className="import-button" data-testid="chat-new" onClick={newConversation}>
        New conversation
      </button>
      {listError && (
        <p className="list-error" role="alert">
          {listError}
        </p>
      )}
      {listLoaded && !listError && conversations.length === 0 && (
        <p className="muted conversation-empty">No conversations yet.</p>
      )}
      <ul className="conversation-list">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              className="conversation"
              data-testid="conversation-row"
              data-conversation-id={conversation.id}
              aria-current={conversation.id === openId}
              onClick={() => void openConversation(conversation.id)}
            >
              {/* Titles are the user's own first words; direction controls are still removed. */}
              <span className="conversation-title">{displayText(conversation.title)}</span>
              <span className="conversation-meta">
                <span className="conversation-model">{conversation.model}</span>
                {answeringIn === conversation.id ? (
                  <span className="conversation-live">answering…</span>
                ) : (
                  <time>{formatListDate(conversation.updatedAt)}</time>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
