import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { loadedThreads } from '../stores/thread-pages.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { ThreadRowView, threadRowHeight } from '../threads/ThreadRow.tsx';
import { orderThreads } from './triage-order.ts';

// The loaded threads with answers, sorted or filtered by them; virtualized like the thread list.
export function OrderedThreadList() {
  const pages = useMailStore((state) => state.pages);
  const openId = useMailStore((state) => state.openThread?.id ?? null);
  const openThreadById = useMailStore((state) => state.openThreadById);
  const answers = useTriageStore((state) => state.answers);
  const order = useTriageStore((state) => state.order);
  const scroller = useRef<HTMLDivElement>(null);

  const threads = useMemo(() => orderThreads(loadedThreads(pages), answers, order), [pages, answers, order]);

  const virtualizer = useVirtualizer({
    count: threads.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => threadRowHeight,
    overscan: 8,
    useFlushSync: false,
  });

  // j/k open the next row here (keyboard/shortcuts.ts); it is scrolled into view.
  const openIndex = threads.findIndex((t) => t.id === openId);
  useEffect(() => {
    if (openIndex !== -1) virtualizer.scrollToIndex(openIndex, { align: 'auto' });
  }, [openIndex, virtualizer]);

  if (threads.length === 0) {
    return <div className="list-status">No loaded conversation has answers that match.</div>;
  }
  return (
    <div
      ref={scroller}
      className="thread-scroll"
      role="listbox"
      aria-label="Conversations by triage answers"
      data-testid="ordered-thread-list"
      tabIndex={0}
    >
      <div className="thread-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const thread = threads[row.index];
          if (!thread) return null;
          return (
            <ThreadRowView
              key={thread.id}
              thread={thread}
              top={row.start}
              selected={thread.id === openId}
              open={thread.id === openId}
              onOpen={() => void openThreadById(thread.id)}
            />
          );
        })}
      </div>
    </div>
  );
}
