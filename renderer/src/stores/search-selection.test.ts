import { expect, test } from 'vitest';
import {
  hitChecked,
  hitRange,
  hitsHeaderCheck,
  hitsSelectionKeyAction,
  hitThreads,
  hitToggled,
  offersAllMatching,
} from './search-selection.ts';
import { nothingChosen } from './thread-selection.ts';

// Hits 0..4: two messages of conversation 7 (0 and 3), and conversations 8, 9 and 10.
const hits = [7, 8, 9, 7, 10].map((threadId) => ({ threadId }));
const ids = (...n: number[]) => ({ ids: new Set(n), allInView: false });
const everyMatch = { ids: new Set<number>(), allInView: true };

test('the conversations shown are each counted once, in the order of their first hit', () => {
  expect(hitThreads(hits)).toEqual([7, 8, 9, 10]);
});

test('checking a hit selects its conversation, so every hit of that conversation shows checked', () => {
  const after = hitToggled(nothingChosen, hits, 0);
  expect([...after.ids]).toEqual([7]);
  expect(hits.map((hit) => hitChecked(after, hit))).toEqual([true, false, false, true, false]);
});

test('unchecking the other hit of a conversation takes the conversation out', () => {
  expect([...hitToggled(ids(7, 9), hits, 3).ids]).toEqual([9]);
});

test('a position past the mail hits (a document hit) selects nothing', () => {
  expect(hitToggled(ids(8), hits, 5)).toEqual(ids(8));
  expect(hitRange(ids(8), hits, 0, 6)).toEqual(ids(8));
});

test('a Shift-click takes the conversations of every hit between the anchor and the clicked one', () => {
  expect([...hitRange(ids(10), hits, 1, 3).ids].sort()).toEqual([10, 7, 8, 9].sort());
  expect([...hitRange(nothingChosen, hits, 4, 3).ids].sort()).toEqual([10, 7]);
  expect([...hitRange(nothingChosen, hits, null, 2).ids]).toEqual([9]);
});

test('leaving "every match" by unchecking a hit keeps the other conversations shown selected', () => {
  const after = hitToggled(everyMatch, hits, 3);
  expect(after.allInView).toBe(false);
  expect([...after.ids].sort()).toEqual([10, 8, 9]);
});

test('the header checkbox says all, some or none of the conversations shown', () => {
  expect(hitsHeaderCheck(nothingChosen, hits)).toBe('none');
  expect(hitsHeaderCheck(ids(7, 8), hits)).toBe('some');
  expect(hitsHeaderCheck(ids(7, 8, 9, 10), hits)).toBe('all');
  expect(hitsHeaderCheck(everyMatch, hits)).toBe('all');
});

test('"select all that match" is offered once every conversation shown is selected, and not twice', () => {
  expect(offersAllMatching(ids(7, 8, 9, 10), hits)).toBe(true);
  expect(offersAllMatching(ids(7, 8, 9), hits)).toBe(false);
  expect(offersAllMatching(everyMatch, hits)).toBe(false);
  expect(offersAllMatching(nothingChosen, [])).toBe(false);
});

test('the conversation keys on selected hits: s stars and u marks read, hits carrying no flags', () => {
  expect(hitsSelectionKeyAction('e', ids(7))).toEqual({ kind: 'archive' });
  expect(hitsSelectionKeyAction('#', everyMatch)).toEqual({ kind: 'trash' });
  expect(hitsSelectionKeyAction('s', ids(7, 8))).toEqual({ kind: 'star', starred: true });
  expect(hitsSelectionKeyAction('u', everyMatch)).toEqual({ kind: 'read', read: true });
  expect(hitsSelectionKeyAction('U', ids(7))).toEqual({ kind: 'read', read: false });
  expect(hitsSelectionKeyAction('j', ids(7))).toBeNull();
});
