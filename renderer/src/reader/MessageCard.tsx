import { useEffect, useRef } from 'react';
import { calendarPartIndex } from '../../../shared/calendar-part.ts';
import type { Address, MessageView } from '../../../shared/contract/index.ts';
import { formatFullDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useChatStore } from '../stores/chat-store.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useReplyDraftStore } from '../stores/reply-draft-store.ts';
import { useSummaryStore } from '../stores/summary-store.ts';
import { AttachmentChips } from './AttachmentChips.tsx';
import { InvitationCard } from './InvitationCard.tsx';
import { MessageBody } from './MessageBody.tsx';
import { SyncErrorNote } from './SyncErrorNote.tsx';
import { UnsubscribeButton, UnsubscribeFailure } from './UnsubscribeButton.tsx';
import { WarningBanner } from './WarningBanner.tsx';

function formatAddress(address: Address): string {
  return displayText(address.name ? `${address.name} <${address.address}>` : address.address);
}

// `onCollapse`: in a thread of several, the sender's line folds the message back to one line (ThreadMessages.tsx).
export function MessageCard({ message, onCollapse }: { message: MessageView; onCollapse?: () => void }) {
  const focused = useMailStore((state) => state.focusMessageId === message.id);
  // A summary's citation chip asked to show this message: each press scrolls to it again.
  const cited = useSummaryStore((state) =>
    state.highlight?.messageId === message.id ? state.highlight.tick : 0,
  );
  const card = useRef<HTMLElement>(null);
  const quoteMessage = useChatStore((state) => state.quoteMessage);
  const showView = useAppStore((state) => state.showView);
  const selected = useSummaryStore((state) => state.selection.some((m) => m.id === message.id));
  const toggleMessage = useSummaryStore((state) => state.toggleMessage);
  const answer = useComposeStore((state) => state.answer);
  const draftReply = useReplyDraftStore((state) => state.draft);
  const stopDraft = useReplyDraftStore((state) => state.stop);
  const drafting = useReplyDraftStore((state) => state.running?.messageId === message.id);
  const anyDrafting = useReplyDraftStore((state) => state.running !== null);
  const draftError = useReplyDraftStore((state) =>
    state.error?.messageId === message.id ? state.error.failure.message : null,
  );

  useEffect(() => {
    if (focused) card.current?.scrollIntoView({ block: 'start' });
  }, [focused]);
  useEffect(() => {
    if (cited) card.current?.scrollIntoView({ block: 'start' });
  }, [cited]);

  const fromName = displayText(message.from.name);
  const fromAddress = displayText(message.from.address);
  return (
    <section
      ref={card}
      className={`message${message.unread ? ' unread' : ''}${cited ? ' cited' : ''}`}
      data-testid="message"
      data-message-id={message.id}
      aria-label={`Message from ${fromName || fromAddress}`}
    >
      <header className="message-header">
        <div className="message-from">
          {onCollapse && (
            <button
              type="button"
              className="ghost small message-collapse"
              data-testid="message-collapse"
              aria-expanded={true}
              aria-label="Collapse this message"
              title="Collapse"
              onClick={onCollapse}
            >
              ▾
            </button>
          )}
          <strong>{fromName || fromAddress}</strong>
          {fromName && <span className="address"> &lt;{fromAddress}&gt;</span>}
          <UnsubscribeButton message={message.id} />
        </div>
        <time className="message-date" dateTime={new Date(message.date).toISOString()}>
          {formatFullDate(message.date)}
        </time>
        {/* Skimmer makes the reply or forward from the stored message (draft:new): only its id leaves here. */}
        <span className="message-answer">
          <button
            type="button"
            className="ghost small"
            data-testid="message-reply"
            title="Reply (r)"
            onClick={() => void answer('reply', message.id)}
          >
            Reply
          </button>
          {/* The model drafts the reply from the thread (draft:aiReply): only this message's id leaves here. */}
          {drafting ? (
            <button
              type="button"
              className="ghost small"
              data-testid="message-draft-stop"
              onClick={() => void stopDraft()}
            >
              Drafting… Stop
            </button>
          ) : (
            <button
              type="button"
              className="ghost small"
              data-testid="message-draft-reply"
              title="The model drafts a reply from this thread, with its citations; you check it before sending"
              disabled={anyDrafting}
              onClick={() => void draftReply(message.id, false)}
            >
              Draft reply
            </button>
          )}
          <button
            type="button"
            className="ghost small"
            data-testid="message-reply-all"
            title="Reply all (a)"
            onClick={() => void answer('all', message.id)}
          >
            Reply all
          </button>
          <button
            type="button"
            className="ghost small"
            data-testid="message-forward"
            title="Forward (f)"
            onClick={() => void answer('forward', message.id)}
          >
            Forward
          </button>
        </span>
        {/* Only the message's id goes to the chat: Skimmer loads and marks the mail itself (DESIGN §8). */}
        <button
          type="button"
          className="ghost small ask-in-chat"
          data-testid="ask-in-chat"
          onClick={() => {
            quoteMessage({ id: message.id, subject: message.subject, from: fromName || fromAddress });
            showView('chat');
          }}
        >
          Ask in chat
        </button>
        {/* "Ask about selection" in the summary panel asks about exactly the checked messages, from any thread. */}
        <label className="message-select">
          <input
            type="checkbox"
            data-testid="message-select"
            checked={selected}
            onChange={() =>
              toggleMessage({
                id: message.id,
                threadId: message.threadId,
                label: `${fromName || fromAddress}: ${displayText(message.subject) || '(no subject)'}`,
              })
            }
          />
          Select
        </label>
        <dl className="message-fields">
          <dt>To</dt>
          <dd>{message.to.map(formatAddress).join(', ') || '—'}</dd>
          {message.cc.length > 0 && (
            <>
              <dt>Cc</dt>
              <dd>{message.cc.map(formatAddress).join(', ')}</dd>
            </>
          )}
          <dt>Subject</dt>
          <dd>{displayText(message.subject) || '(no subject)'}</dd>
        </dl>
      </header>
      {draftError && (
        <p className="warning draft-reply-error" role="alert" data-testid="message-draft-error">
          {draftError}
        </p>
      )}
      <UnsubscribeFailure message={message.id} />
      <SyncErrorNote message={message} />
      <WarningBanner warnings={message.warnings} />
      {/* Only a message with a calendar part asks for its card. */}
      {calendarPartIndex(message.attachments) !== null && <InvitationCard message={message.id} />}
      {message.attachments.length > 0 && (
        <AttachmentChips attachments={message.attachments} message={message.id} />
      )}
      <MessageBody message={message} />
    </section>
  );
}
