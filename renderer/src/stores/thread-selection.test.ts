import { expect, test } from 'vitest';
import type { Folder, ThreadSummary } from '../../../shared/contract/index.ts';
import type { Pages } from './thread-pages.ts';
import {
  chosenCount,
  headerCheck,
  nothingChosen,
  offersAllInView,
  selectionKeyAction,
  selectionOf,
  spamActionFor,
  toggled,
  withRange,
} from './thread-selection.ts';

const thread = (id: number): ThreadSummary => ({
  id,
  subject: `T${id}`,
  participants: [],
  lastDate: 0,
  count: 1,
  unread: 0,
  snippet: '',
  hasAttachments: false,
  starred: false,
});
// Rows 0..4 are threads 10..14.
const pages: Pages = new Map([[0, [10, 11, 12, 13, 14].map(thread)]]);
const ids = (...n: number[]) => ({ ids: new Set(n), allInView: false });

test('a toggle adds a row, and a second toggle takes it out again', () => {
  const once = toggled(nothingChosen, pages, 11);
  expect([...once.ids]).toEqual([11]);
  expect([...toggled(once, pages, 11).ids]).toEqual([]);
});

test('a Shift-click takes every loaded row between the anchor and the clicked one, added to the rest', () => {
  expect([...withRange(ids(10), pages, 1, 3).ids].sort()).toEqual([10, 11, 12, 13]);
  expect([...withRange(nothingChosen, pages, 4, 2).ids].sort()).toEqual([12, 13, 14]);
});

test('a Shift-click with no anchor yet takes just the clicked row', () => {
  expect([...withRange(nothingChosen, pages, null, 2).ids]).toEqual([12]);
});

test('leaving "all in this view" by a toggle keeps the other loaded rows selected', () => {
  const all = { ids: new Set<number>(), allInView: true };
  const after = toggled(all, pages, 12);
  expect(after.allInView).toBe(false);
  expect([...after.ids].sort()).toEqual([10, 11, 13, 14]);
});

test('the header checkbox says all, some or none of the loaded rows', () => {
  expect(headerCheck(nothingChosen, pages)).toBe('none');
  expect(headerCheck(ids(10, 11), pages)).toBe('some');
  expect(headerCheck(ids(10, 11, 12, 13, 14), pages)).toBe('all');
});

test('"select all in this view" is offered when every loaded row is selected and the view has more', () => {
  const loaded = ids(10, 11, 12, 13, 14);
  expect(offersAllInView(loaded, pages, 500)).toBe(true);
  expect(offersAllInView(loaded, pages, 5)).toBe(false);
  expect(offersAllInView(ids(10), pages, 500)).toBe(false);
  // Past the bound of one request, the view is acted on by pages.
  expect(offersAllInView(loaded, pages, 10_001)).toBe(false);
});

test('"all in this view" counts the whole view and sends no thread ids', () => {
  const all = { ids: new Set<number>(), allInView: true };
  expect(chosenCount(all, 1234)).toBe(1234);
  expect(selectionOf(all, { view: 'inbox' })).toEqual({ scope: { view: 'inbox' } });
  expect(selectionOf(ids(10, 12), { folderId: 3 })).toEqual({ scope: { folderId: 3 }, threads: [10, 12] });
  expect(selectionOf(nothingChosen, { view: 'inbox' })).toBeNull();
});

const folder = (id: number, place: Folder['place']): Folder => ({
  id,
  name: `F${id}`,
  source: '',
  place,
  account: null,
  total: 0,
  unread: 0,
});
const folders = [folder(1, null), folder(2, 'spam'), folder(3, 'sent')];

test('in a Spam folder `!` is Not spam; elsewhere it is Spam unless the whole conversation is in Spam', () => {
  const list = { folderId: 2, view: 'inbox' as const, searching: false };
  expect(spamActionFor(folders, list, [1])).toBe('notSpam');
  const inbox = { folderId: null, view: 'inbox' as const, searching: false };
  expect(spamActionFor(folders, inbox, [1, 3])).toBe('spam');
  expect(spamActionFor(folders, { ...inbox, searching: true }, [2, 2])).toBe('notSpam');
  expect(spamActionFor(folders, { ...inbox, searching: true }, [2, 1])).toBe('spam');
});

test('the conversation keys on a selection: e archives, # trashes, I and U mark read and unread', () => {
  expect(selectionKeyAction('e', ids(10, 11), pages)).toEqual({ kind: 'archive' });
  expect(selectionKeyAction('#', ids(10), pages)).toEqual({ kind: 'trash' });
  expect(selectionKeyAction('I', ids(10), pages)).toEqual({ kind: 'read', read: true });
  expect(selectionKeyAction('U', ids(10), pages)).toEqual({ kind: 'read', read: false });
  for (const key of ['j', 'x', 'Enter', 'l', 'v', '!'])
    expect(selectionKeyAction(key, ids(10), pages)).toBeNull();
});

test('s stars the selection unless every selected row is starred; u marks it read unless none is unread', () => {
  const mixed: Pages = new Map([
    [0, [{ ...thread(20), starred: true, unread: 2 }, thread(21), { ...thread(22), starred: true }]],
  ]);
  expect(selectionKeyAction('s', ids(20, 21), mixed)).toEqual({ kind: 'star', starred: true });
  expect(selectionKeyAction('s', ids(20, 22), mixed)).toEqual({ kind: 'star', starred: false });
  expect(selectionKeyAction('u', ids(20, 21), mixed)).toEqual({ kind: 'read', read: true });
  expect(selectionKeyAction('u', ids(21, 22), mixed)).toEqual({ kind: 'read', read: false });
  // Rows not on screen (every conversation of the view, or a selected row no longer loaded) count as neither
  // starred nor read: the first choice.
  expect(selectionKeyAction('s', { ids: new Set(), allInView: true }, mixed)).toEqual({
    kind: 'star',
    starred: true,
  });
  expect(selectionKeyAction('u', ids(21, 99), mixed)).toEqual({ kind: 'read', read: true });
});
