import { expect, test } from 'vitest';
import type { ThreadSummary } from '../../../shared/contract/index.ts';
import { maxPages, pageSize, pagesForRange, patchThread, rowAt, withPage } from './thread-pages.ts';

const thread = (id: number): ThreadSummary => ({
  id,
  subject: `Thread ${id}`,
  participants: [],
  lastDate: 0,
  count: 1,
  unread: 1,
  snippet: '',
  hasAttachments: false,
  starred: false,
});

test('a visible range maps to the windows it touches', () => {
  expect(pagesForRange(0, 10)).toEqual([0]);
  expect(pagesForRange(pageSize - 5, pageSize + 5)).toEqual([0, 1]);
  expect(pagesForRange(99_990, 99_999)).toEqual([Math.floor(99_990 / pageSize)]);
});

test('rows are found by their index across windows', () => {
  const pages = withPage(new Map(), 1, [thread(7), thread(8)], 1);
  expect(rowAt(pages, pageSize + 1)?.id).toBe(8);
  expect(rowAt(pages, 0)).toBeUndefined();
});

test('keeps at most maxPages windows, dropping those farthest from where the user looks', () => {
  let pages = new Map() as ReturnType<typeof withPage>;
  for (let page = 0; page <= maxPages; page++) pages = withPage(pages, page, [thread(page + 1)], maxPages);
  expect(pages.size).toBe(maxPages);
  expect(pages.has(0)).toBe(false);
  expect(pages.has(maxPages)).toBe(true);
});

test('patching a thread returns a new map only when the thread is loaded', () => {
  const pages = withPage(new Map(), 0, [thread(1), thread(2)], 0);
  const patched = patchThread(pages, 2, { unread: 0 });
  expect(rowAt(patched, 1)?.unread).toBe(0);
  expect(rowAt(pages, 1)?.unread).toBe(1);
  expect(patchThread(pages, 99, { unread: 0 })).toBe(pages);
});
