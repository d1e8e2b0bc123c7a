import { expect, test } from 'vitest';
import { moveTargets } from './move-targets.ts';

const messages = [
  { id: 1, folderId: 10 },
  { id: 2, folderId: 11 },
  { id: 3, folderId: 10 },
];

test('in a folder, only the conversation’s messages in that folder move', () => {
  expect(moveTargets(messages, [10])).toEqual([1, 3]);
});

test('in All mail or a search, the whole conversation moves', () => {
  expect(moveTargets(messages, null)).toEqual([1, 2, 3]);
});

test('a folder the conversation has no message in moves nothing', () => {
  expect(moveTargets(messages, [12])).toEqual([]);
});
