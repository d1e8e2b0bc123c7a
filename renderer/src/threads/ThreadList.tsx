import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { visibleThreadIds } from '../stores/thread-pages.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { ThreadRow, threadRowHeight } from './ThreadRow.tsx';

// The thread list is virtualized with a fixed row height: only the rows on screen exist in the DOM, and only
// the windows they fall in are fetched (stores/thread-pages.ts), so 100k threads scroll like 100.
export function ThreadList() {
  const total = useMailStore((state) => state.total);
  const generation = useMailStore((state) => state.listGeneration);
  const cursor = useMailStore((state) => state.cursor);
  const listError = useMailStore((state) => state.listError);
  const showRange = useMailStore((state) => state.showRange);
  const reloadList = useMailStore((state) => state.reloadList);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list generation must refetch the same range
  useEffect(() => {
    if (total) showRange(first, last);
  }, [first, last, total, generation, showRange]);

  // The chips' answers are read for the loaded threads on screen only (a string key: the same ids, no read).
  const visibleKey = useMailStore((state) => visibleThreadIds(state.pages, first, last).join(','));
  useEffect(() => {
    useTriageStore.getState().showThreads(visibleKey === '' ? [] : visibleKey.split(',').map(Number));
  }, [visibleKey]);

  useEffect(() => {
    if (total) virtualizer.scrollToIndex(cursor, { align: 'auto' });
  }, [cursor, total, virtualizer]);

  if (listError && !total) {
    return (
      <div className="list-status" role="alert">
        {listError}
        <button type="button" className="ghost" onClick={() => void reloadList()}>
          Try again
        </button>
      </div>
    );
  }
  if (total === null) return <div className="list-status">Loading…</div>;
  if (total === 0) return <div className="list-status">No conversations here.</div>;

  return (
    <div ref={scroller} className="thread-scroll" role="listbox" aria-label="Conversations" tabIndex={0}>
      <div className="thread-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => (
          <ThreadRow key={row.key} index={row.index} top={row.start} />
        ))}
      </div>
    </div>
  );
}
