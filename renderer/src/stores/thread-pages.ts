// The thread list is fetched in windows ("pages") of `pageSize` as the user scrolls, and only a bounded number
// of pages is kept, so a mailbox of 100k threads never sits in memory or crosses the bridge at once. Pure;
// tested in thread-pages.test.ts.
import type { ThreadSummary } from '../../../shared/contract/index.ts';

export const pageSize = 200;
export const maxPages = 30;

export type Pages = ReadonlyMap<number, readonly ThreadSummary[]>;

export function pagesForRange(first: number, last: number): number[] {
  const pages: number[] = [];
  for (let page = Math.floor(first / pageSize); page <= Math.floor(last / pageSize); page++) pages.push(page);
  return pages;
}

export function rowAt(pages: Pages, index: number): ThreadSummary | undefined {
  return pages.get(Math.floor(index / pageSize))?.[index % pageSize];
}

// The ids of the loaded threads from `first` to `last`, in list order.
export function visibleThreadIds(pages: Pages, first: number, last: number): number[] {
  const ids: number[] = [];
  for (let index = first; index <= last; index++) {
    const row = rowAt(pages, index);
    if (row) ids.push(row.id);
  }
  return ids;
}

// Every loaded thread in list order.
export function loadedThreads(pages: Pages): ThreadSummary[] {
  return [...pages.keys()].sort((a, b) => a - b).flatMap((page) => pages.get(page) ?? []);
}

// Adds a page; past `maxPages`, drops the pages farthest from `nearPage` (where the user is looking).
export function withPage(
  pages: Pages,
  page: number,
  rows: readonly ThreadSummary[],
  nearPage: number,
): Pages {
  const next = new Map(pages);
  next.set(page, rows);
  if (next.size <= maxPages) return next;
  const byDistance = [...next.keys()].sort((a, b) => Math.abs(b - nearPage) - Math.abs(a - nearPage));
  for (const stale of byDistance.slice(0, next.size - maxPages)) next.delete(stale);
  return next;
}

// Changes one thread wherever it is loaded; returns the same map when it is not loaded.
export function patchThread(pages: Pages, threadId: number, patch: Partial<ThreadSummary>): Pages {
  for (const [page, rows] of pages) {
    const at = rows.findIndex((row) => row.id === threadId);
    if (at === -1) continue;
    const next = new Map(pages);
    next.set(
      page,
      rows.map((row, index) => (index === at ? { ...row, ...patch } : row)),
    );
    return next;
  }
  return pages;
}

export function findThread(pages: Pages, threadId: number): ThreadSummary | undefined {
  for (const rows of pages.values()) {
    const row = rows.find((candidate) => candidate.id === threadId);
    if (row) return row;
  }
  return undefined;
}
