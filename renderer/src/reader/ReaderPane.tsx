import { useEffect, useRef } from 'react';
import { ReaderLabels } from '../labels/ReaderLabels.tsx';
import { displayText } from '../mail/display-text.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { SummaryPanel } from '../summary/SummaryPanel.tsx';
import { ThreadActions } from './ThreadActions.tsx';
import { ThreadMessages } from './ThreadMessages.tsx';

export function ReaderPane() {
  const thread = useMailStore((state) => state.openThread);
  const loadingId = useMailStore((state) => state.threadLoadingId);
  const threadError = useMailStore((state) => state.threadError);
  const scroller = useRef<HTMLElement>(null);
  const threadId = thread?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a different thread starts at the top
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [threadId]);

  return (
    <section ref={scroller} className="reader-pane" aria-label="Conversation" aria-busy={loadingId !== null}>
      {threadError && (
        <p className="reader-error" role="alert">
          {threadError}
        </p>
      )}
      {thread ? (
        <article className="thread">
          <header className="thread-head">
            <h1 className="thread-subject">{displayText(thread.subject) || '(no subject)'}</h1>
            <ThreadActions threadId={thread.id} />
            <ReaderLabels threadId={thread.id} />
          </header>
          <SummaryPanel threadId={thread.id} messageIds={thread.messages.map((m) => m.id)} />
          <ThreadMessages threadId={thread.id} messages={thread.messages} />
        </article>
      ) : (
        <p className="reader-empty">
          {loadingId !== null
            ? 'Loading…'
            : 'Select a conversation. j/k move, Enter opens, e archives, # trashes, / searches, c writes a mail.'}
        </p>
      )}
    </section>
  );
}
