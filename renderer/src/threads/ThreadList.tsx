import { useEffect } from 'react';
import { useMailStore } from '../stores/mail-store.ts';
import { visibleThreadIds } from '../stores/thread-pages.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { listStatus, PagedRows, usePagedRows } from './paged-rows.tsx';
import { ThreadRow } from './ThreadRow.tsx';

// The folder's or view's conversations, in the one virtualized paged list (paged-rows.tsx), the cursor kept in view.
export function ThreadList() {
  const total = useMailStore((state) => state.total);
  const generation = useMailStore((state) => state.listGeneration);
  const cursor = useMailStore((state) => state.cursor);
  const listError = useMailStore((state) => state.listError);
  const showRange = useMailStore((state) => state.showRange);
  const reloadList = useMailStore((state) => state.reloadList);
  const { scroller, rows, first, last, height } = usePagedRows({
    total,
    generation,
    showRange,
    keepInView: cursor,
  });

  // The chips' answers are read for the loaded threads on screen only (a string key: the same ids, no read).
  const visibleKey = useMailStore((state) => visibleThreadIds(state.pages, first, last).join(','));
  useEffect(() => {
    useTriageStore.getState().showThreads(visibleKey === '' ? [] : visibleKey.split(',').map(Number));
  }, [visibleKey]);

  const status = listStatus(total, listError, 'No conversations here.', () => void reloadList());
  if (status) return status;
  return (
    <PagedRows scroller={scroller} height={height} label="Conversations">
      {rows.map((row) => (
        <ThreadRow key={row.key} index={row.index} top={row.start} />
      ))}
    </PagedRows>
  );
}
