import { useEffect } from 'react';
import { useChatStore } from '../stores/chat-store.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { UndoBar } from '../undo/UndoBar.tsx';
import { Composer } from './Composer.tsx';
import { ConversationList } from './ConversationList.tsx';
import { ModelField } from './ModelField.tsx';
import { canChat } from './model-ref.ts';
import { NoChatService } from './NoChatService.tsx';
import { Transcript } from './Transcript.tsx';

// The chat view (DESIGN §12): stored conversations on the left, the open one in the middle, the composer below.
// Opening it reads the saved conversations and services from Skimmer; no service is contacted.
export function ChatView() {
  const title = useChatStore((state) =>
    state.openId === null
      ? 'New conversation'
      : (state.conversations.find((c) => c.id === state.openId)?.title ?? 'Conversation'),
  );
  const servicesChecked = useChatStore((state) => state.servicesChecked);
  const hasChatService = useServicesStore((state) => state.services.some((s) => canChat(s.kind)));
  const servicesError = useServicesStore((state) => state.listError);

  useEffect(() => {
    void useChatStore.getState().start();
  }, []);

  const noService = servicesChecked && !servicesError && !hasChatService;

  return (
    <main className="chat-view" data-testid="chat-view">
      <ConversationList />
      <section className="chat-main" aria-label="Chat">
        <header className="chat-header">
          <h2 className="chat-title" data-testid="chat-title">
            {title}
          </h2>
          {!noService && <ModelField />}
        </header>
        {servicesError && (
          <p className="warning chat-banner" role="alert">
            {servicesError}
          </p>
        )}
        {noService && <NoChatService />}
        <Transcript invite={!noService} />
        <UndoBar />
        {!noService && <Composer />}
      </section>
    </main>
  );
}
