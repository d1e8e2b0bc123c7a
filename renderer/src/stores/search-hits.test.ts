import { expect, test } from 'vitest';
import { hitAt, stepCursor } from './search-hits.ts';

const mail = ['m1', 'm2'];
const documents = ['d1c0', 'd1c1'];

test.each([
  [0, { kind: 'mail', hit: 'm1' }],
  [1, { kind: 'mail', hit: 'm2' }],
  [2, { kind: 'document', hit: 'd1c0' }],
  [3, { kind: 'document', hit: 'd1c1' }],
  [4, null],
  [-1, null],
])('position %i picks the mail hits first, then the document hits', (index, expected) => {
  expect(hitAt(mail, documents, index)).toEqual(expected);
});

test('with no mail hits the first position is the first document hit', () => {
  expect(hitAt([], documents, 0)).toEqual({ kind: 'document', hit: 'd1c0' });
});

test('with no document hits a position past the mail is nothing', () => {
  expect(hitAt(mail, [], 2)).toBeNull();
});

test.each([
  [0, 1, 4, 1],
  [3, 1, 4, 3],
  [0, -1, 4, 0],
  [2, -1, 4, 1],
  [0, 1, 0, 0],
  [5, 1, 3, 2],
])('from %i a step of %i among %i hits lands on %i', (cursor, delta, count, expected) => {
  expect(stepCursor(cursor, delta, count)).toBe(expected);
});
