import { useMailStore } from '../stores/mail-store.ts';
import { useOrderedListStore } from '../stores/ordered-list-store.ts';
import { pageSize, rowAt } from '../stores/thread-pages.ts';
import { listStatus, PagedRows, usePagedRows } from '../threads/paged-rows.tsx';
import { ThreadRowPlaceholder, ThreadRowView } from '../threads/ThreadRow.tsx';

// Every conversation of the folder or view with an answer, sorted or filtered by it in the main process and
// read in windows as the list scrolls, in the same paged list as the thread list (paged-rows.tsx).
export function OrderedThreadList() {
  const total = useOrderedListStore((state) => state.total);
  const pages = useOrderedListStore((state) => state.pages);
  const generation = useOrderedListStore((state) => state.generation);
  const error = useOrderedListStore((state) => state.error);
  const showRange = useOrderedListStore((state) => state.showRange);
  const openId = useMailStore((state) => state.openThread?.id ?? null);
  const openThreadById = useMailStore((state) => state.openThreadById);

  // j/k open the next row here (keyboard/shortcuts.ts); it is kept in view.
  let openIndex = -1;
  for (const [page, threads] of pages) {
    const at = threads.findIndex((t) => t.id === openId);
    if (at !== -1) openIndex = page * pageSize + at;
  }
  const { scroller, rows, height } = usePagedRows({ total, generation, showRange, keepInView: openIndex });

  const status = listStatus(total, error, 'No conversation here has answers that match.');
  if (status) return status;
  return (
    <PagedRows
      scroller={scroller}
      height={height}
      label="Conversations by triage answers"
      testId="ordered-thread-list"
    >
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
    </PagedRows>
  );
}
