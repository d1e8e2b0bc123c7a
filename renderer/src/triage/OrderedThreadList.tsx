import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { useOrderedListStore } from '../stores/ordered-list-store.ts';
import { pageSize, rowAt } from '../stores/thread-pages.ts';
import { ThreadRowPlaceholder, ThreadRowView, threadRowHeight } from '../threads/ThreadRow.tsx';

// Every conversation of the folder or view with an answer, sorted or filtered by it in the main process and
// read in windows as the list scrolls; virtualized like the thread list.
export function OrderedThreadList() {
  const total = useOrderedListStore((state) => state.total);
  const pages = useOrderedListStore((state) => state.pages);
  const generation = useOrderedListStore((state) => state.generation);
  const error = useOrderedListStore((state) => state.error);
  const showRange = useOrderedListStore((state) => state.showRange);
  const openId = useMailStore((state) => state.openThread?.id ?? null);
  const openThreadById = useMailStore((state) => state.openThreadById);
  const scroller = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => threadRowHeight,
    overscan: 8,
    useFlushSync: false,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation must refetch the same range
  useEffect(() => {
    if (total) showRange(first, last);
  }, [first, last, total, generation, showRange]);

  // j/k open the next row here (keyboard/shortcuts.ts); it is scrolled into view.
  let openIndex = -1;
  for (const [page, threads] of pages) {
    const at = threads.findIndex((t) => t.id === openId);
    if (at !== -1) openIndex = page * pageSize + at;
  }
  useEffect(() => {
    if (openIndex !== -1) virtualizer.scrollToIndex(openIndex, { align: 'auto' });
  }, [openIndex, virtualizer]);

  if (error && !total)
    return (
      <div className="list-status" role="alert">
        {error}
      </div>
    );
  if (total === null) return <div className="list-status">Loading…</div>;
  if (total === 0) return <div className="list-status">No conversation here has answers that match.</div>;
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
        {rows.map((row) => {
          const thread = rowAt(pages, row.index);
          if (!thread) return <ThreadRowPlaceholder key={row.key} top={row.start} />;
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
