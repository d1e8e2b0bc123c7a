import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { threadRowHeight } from './ThreadRow.tsx';

// The one virtualized, paged list of conversation rows (issue 30 §4), for the thread list and the list ordered
// by triage answers: a fixed row height, so only the rows on screen exist in the DOM, and only the windows they
// fall in are asked for (stores/thread-pages.ts), so 100k threads scroll like 100.

type PagedRowsOptions = {
  total: number | null;
  /** A new generation (the list changed under the same range) asks for the range on screen again. */
  generation: number;
  showRange: (first: number, last: number) => void;
  /** The row kept in view (the cursor, the open conversation); -1 for none. */
  keepInView: number;
};

export function usePagedRows({ total, generation, showRange, keepInView }: PagedRowsOptions) {
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

  useEffect(() => {
    if (total && keepInView !== -1) virtualizer.scrollToIndex(keepInView, { align: 'auto' });
  }, [keepInView, total, virtualizer]);

  return { scroller, rows, first, last, height: virtualizer.getTotalSize() };
}

/** The scrolling listbox and its canvas as tall as every row. */
export function PagedRows(props: {
  scroller: RefObject<HTMLDivElement | null>;
  height: number;
  label: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div
      ref={props.scroller}
      className="thread-scroll"
      role="listbox"
      aria-label={props.label}
      data-testid={props.testId}
      tabIndex={0}
    >
      <div className="thread-canvas" style={{ height: props.height }}>
        {props.children}
      </div>
    </div>
  );
}

/** What shows instead of rows: an error (with Try again when it can be), loading, or an empty list. */
export function listStatus(
  total: number | null,
  error: string | null,
  empty: string,
  onRetry?: () => void,
): ReactNode | null {
  if (error && !total)
    return (
      <div className="list-status" role="alert">
        {error}
        {onRetry && (
          <button type="button" className="ghost" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  if (total === null) return <div className="list-status">Loading…</div>;
  if (total === 0) return <div className="list-status">{empty}</div>;
  return null;
}
