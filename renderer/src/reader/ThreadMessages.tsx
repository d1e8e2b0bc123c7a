import { useEffect } from 'react';
import type { MessageView } from '../../../shared/contract/index.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useSummaryStore } from '../stores/summary-store.ts';
import { useThreadOpenStore } from '../stores/thread-open-store.ts';
import '../styles/long-thread.css';
import { CollapsedMessage } from './CollapsedMessage.tsx';
import { MessageCard } from './MessageCard.tsx';

// The messages of the open conversation, the read ones folded to a line (thread-open-state.ts decides which
// start open), with Expand all / Collapse all (also `;` and `:`, keyboard/shortcuts.ts), as in Gmail.
export function ThreadMessages({ threadId, messages }: { threadId: number; messages: MessageView[] }) {
  const openState = useThreadOpenStore((state) => state.state);
  const sync = useThreadOpenStore((state) => state.sync);
  const setOpen = useThreadOpenStore((state) => state.setOpen);
  const expandAll = useThreadOpenStore((state) => state.expandAll);
  const collapseAll = useThreadOpenStore((state) => state.collapseAll);
  // A message the app was asked to show (a search hit, a summary's citation chip) opens first.
  const focusId = useMailStore((state) => state.focusMessageId);
  const citedId = useSummaryStore((state) => state.highlight?.messageId ?? null);
  const citedTick = useSummaryStore((state) => state.highlight?.tick ?? 0);

  // In this order: the thread is synced first, then the message asked for opens in that state.
  useEffect(() => {
    sync(threadId, messages);
  }, [sync, threadId, messages]);
  useEffect(() => {
    if (focusId !== null) setOpen(focusId, true);
  }, [focusId, setOpen]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each press of the chip opens the message again
  useEffect(() => {
    if (citedId !== null) setOpen(citedId, true);
  }, [citedId, citedTick, setOpen]);

  // Until the store has caught up with this thread, the rule is applied to what is shown.
  const current = openState.threadId === threadId ? openState : null;
  const isOpen = (message: MessageView, index: number) =>
    current?.known.has(message.id)
      ? current.open.has(message.id)
      : message.unread || index === messages.length - 1 || message.id === focusId;
  const openCount = messages.filter(isOpen).length;

  return (
    <>
      {messages.length > 1 && (
        <div className="thread-fold-bar" data-testid="thread-fold-bar">
          <span className="thread-count">{messages.length} messages</span>
          <button
            type="button"
            className="ghost small"
            data-testid="expand-all"
            title="Expand all (;)"
            disabled={openCount === messages.length}
            onClick={expandAll}
          >
            Expand all
          </button>
          <button
            type="button"
            className="ghost small"
            data-testid="collapse-all"
            title="Collapse all (:)"
            disabled={openCount === 0}
            onClick={collapseAll}
          >
            Collapse all
          </button>
        </div>
      )}
      {messages.map((message, index) =>
        isOpen(message, index) ? (
          <MessageCard
            key={message.id}
            message={message}
            onCollapse={messages.length > 1 ? () => setOpen(message.id, false) : undefined}
          />
        ) : (
          <CollapsedMessage key={message.id} message={message} onOpen={() => setOpen(message.id, true)} />
        ),
      )}
    </>
  );
}
