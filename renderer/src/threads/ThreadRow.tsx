import type { ThreadSummary } from '../../../shared/contract/index.ts';
import { formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { useMailStarStore } from '../stores/mail-star-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { rowAt } from '../stores/thread-pages.ts';
import { AnswerChips } from '../triage/AnswerChips.tsx';

export const threadRowHeight = 76;

export function ThreadRow({ index, top }: { index: number; top: number }) {
  const thread = useMailStore((state) => rowAt(state.pages, index));
  const selected = useMailStore((state) => state.cursor === index);
  const open = useMailStore((state) => thread !== undefined && state.openThread?.id === thread.id);
  const openRow = useMailStore((state) => state.openRow);

  if (!thread) {
    return (
      <div
        className="thread-row placeholder"
        style={{ transform: `translateY(${top}px)`, height: threadRowHeight }}
        aria-hidden="true"
      >
        <div className="skeleton" />
        <div className="skeleton short" />
      </div>
    );
  }
  return (
    <ThreadRowView thread={thread} top={top} selected={selected} open={open} onOpen={() => openRow(index)} />
  );
}

type ThreadRowViewProps = {
  thread: ThreadSummary;
  top: number;
  selected: boolean;
  open: boolean;
  onOpen(): void;
};

// The list's star: shows whether the conversation is starred and toggles it, without opening it.
function StarToggle({ thread }: { thread: ThreadSummary }) {
  const toggleStar = useMailStarStore((state) => state.toggleStar);
  return (
    <button
      type="button"
      className={thread.starred ? 'row-star starred' : 'row-star'}
      data-testid="row-star"
      title={thread.starred ? 'Unstar (s)' : 'Star (s)'}
      aria-label={thread.starred ? 'Unstar' : 'Star'}
      aria-pressed={thread.starred}
      tabIndex={-1}
      onClick={(event) => {
        event.stopPropagation();
        void toggleStar(thread.id);
      }}
    >
      {thread.starred ? '★' : '☆'}
    </button>
  );
}

// One conversation in a list: the thread list's rows and the rows of a list ordered by triage answers.
export function ThreadRowView({ thread, top, selected, open, onOpen }: ThreadRowViewProps) {
  const classes = ['thread-row', selected && 'selected', open && 'open', thread.unread > 0 && 'unread'];
  return (
    // Keyboard: j/k/Enter act on the list as a whole (keyboard/shortcuts.ts); a click selects and opens.
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled for the whole list, not per row
    <div
      role="option"
      aria-selected={selected}
      tabIndex={-1}
      className={classes.filter(Boolean).join(' ')}
      style={{ transform: `translateY(${top}px)`, height: threadRowHeight }}
      data-testid="thread-row"
      data-thread-id={thread.id}
      onClick={onOpen}
    >
      <div className="row-top">
        <span className="participants">
          {displayText(thread.participants.join(', ')) || '(unknown sender)'}
        </span>
        {thread.count > 1 && <span className="row-count">{thread.count}</span>}
        <StarToggle thread={thread} />
        <time>{formatListDate(thread.lastDate)}</time>
      </div>
      <div className="row-subject">
        {thread.hasAttachments && (
          <span className="row-attachment" title="Has attachments">
            📎
          </span>
        )}
        {displayText(thread.subject) || '(no subject)'}
      </div>
      <div className="row-snippet">
        <AnswerChips threadId={thread.id} />
        <span className="row-snippet-text">{displayText(thread.snippet)}</span>
      </div>
    </div>
  );
}
