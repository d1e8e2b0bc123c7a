import type { MouseEvent } from 'react';
import type { ThreadSummary } from '../../../shared/contract/index.ts';
import { formatListDate } from '../format/format-time.ts';
import { RowLabels } from '../labels/RowLabels.tsx';
import { displayText } from '../mail/display-text.ts';
import { useMailStarStore } from '../stores/mail-star-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useSelectionStore } from '../stores/selection-store.ts';
import { rowAt } from '../stores/thread-pages.ts';
import { AnswerChips } from '../triage/AnswerChips.tsx';

export const threadRowHeight = 76;

export function ThreadRow({ index, top }: { index: number; top: number }) {
  const thread = useMailStore((state) => rowAt(state.pages, index));
  const selected = useMailStore((state) => state.cursor === index);
  const open = useMailStore((state) => thread !== undefined && state.openThread?.id === thread.id);
  const openRow = useMailStore((state) => state.openRow);
  const checked = useSelectionStore(
    (state) => thread !== undefined && (state.allInView || state.ids.has(thread.id)),
  );

  if (!thread) return <ThreadRowPlaceholder top={top} />;
  // Shift-click takes a range, Ctrl/Cmd-click adds or removes a row (as in Gmail and Thunderbird); a plain
  // click opens it.
  const onOpen = (event: MouseEvent) => {
    const selection = useSelectionStore.getState();
    if (event.shiftKey) selection.extendTo(index);
    else if (event.ctrlKey || event.metaKey) selection.toggle(index);
    else openRow(index);
  };
  const check = {
    checked,
    onToggle(event: MouseEvent) {
      const selection = useSelectionStore.getState();
      if (event.shiftKey) selection.extendTo(index);
      else selection.toggle(index);
    },
  };
  return (
    <ThreadRowView thread={thread} top={top} selected={selected} open={open} onOpen={onOpen} check={check} />
  );
}

// A row whose window has not arrived yet.
export function ThreadRowPlaceholder({ top }: { top: number }) {
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

type ThreadRowViewProps = {
  thread: ThreadSummary;
  top: number;
  selected: boolean;
  open: boolean;
  onOpen(event: MouseEvent): void;
  // The row's checkbox, where the list can select rows (the thread list; not the triage-ordered list).
  check?: { checked: boolean; onToggle(event: MouseEvent): void };
};

// The row's selection checkbox: a click toggles it (Shift: a range) without opening the conversation.
function RowCheck({ check }: { check: NonNullable<ThreadRowViewProps['check']> }) {
  return (
    <span
      className={check.checked ? 'row-check on' : 'row-check'}
      data-testid="row-check"
      // The row is one option to a screen reader (axe: nested-interactive); x checks it and the row says so.
      aria-hidden="true"
      onClick={(event) => {
        event.stopPropagation();
        check.onToggle(event);
      }}
    >
      {check.checked ? '☑' : '☐'}
    </span>
  );
}

// The list's star: shows whether the conversation is starred and toggles it, without opening it.
function StarToggle({ thread }: { thread: ThreadSummary }) {
  const toggleStar = useMailStarStore((state) => state.toggleStar);
  return (
    <span
      className={thread.starred ? 'row-star starred' : 'row-star'}
      data-testid="row-star"
      title={thread.starred ? 'Unstar (s)' : 'Star (s)'}
      data-starred={String(thread.starred)}
      // s stars the row from the keyboard; the row's own text says "starred" (an option may not hold a button).
      aria-hidden="true"
      onClick={(event) => {
        event.stopPropagation();
        void toggleStar(thread.id);
      }}
    >
      {thread.starred ? '★' : '☆'}
    </span>
  );
}

// One conversation in a list: the thread list's rows and the rows of a list ordered by triage answers.
export function ThreadRowView({ thread, top, selected, open, onOpen, check }: ThreadRowViewProps) {
  const classes = [
    'thread-row',
    selected && 'selected',
    open && 'open',
    thread.unread > 0 && 'unread',
    check?.checked && 'checked',
  ];
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
      data-checked={check?.checked ? 'true' : undefined}
      // A Shift-click selects rows, not the text between them.
      onMouseDown={(event) => {
        if (event.shiftKey) event.preventDefault();
      }}
      onClick={(event) => onOpen(event)}
    >
      <div className="row-top">
        {check && <RowCheck check={check} />}
        <span className="participants">
          {displayText(thread.participants.join(', ')) || '(unknown sender)'}
        </span>
        {thread.count > 1 && <span className="row-count">{thread.count}</span>}
        <StarToggle thread={thread} />
        <time>{formatListDate(thread.lastDate)}</time>
        {(thread.starred || check?.checked) && (
          <span className="sr-only">
            {[thread.starred && 'starred', check?.checked && 'checked'].filter(Boolean).join(', ')}
          </span>
        )}
      </div>
      <div className="row-subject">
        {thread.hasAttachments && (
          <span className="row-attachment" title="Has attachments" role="img" aria-label="Has attachments">
            {/* A drawn paperclip, not the emoji: a system without a colour emoji font (Debian's Chromium) showed a box. */}
            <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
              <path
                d="M10.5 4.5 5.8 9.2a1.2 1.2 0 0 0 1.7 1.7l5-5a2.6 2.6 0 0 0-3.7-3.7l-5.2 5.2a4 4 0 0 0 5.7 5.7L13.5 9"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.4"
                strokeLinecap="round"
              />
            </svg>
          </span>
        )}
        {displayText(thread.subject) || '(no subject)'}
      </div>
      <div className="row-snippet">
        <AnswerChips threadId={thread.id} />
        <RowLabels threadId={thread.id} />
        <span className="row-snippet-text">{displayText(thread.snippet)}</span>
      </div>
    </div>
  );
}
