import { describe, expect, test } from 'vitest';
import { leavingFolders, moveTargets } from './move-targets.ts';

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

describe('the folders a view leaves', () => {
  const folders = [
    { id: 1, place: 'inbox' as const },
    { id: 2, place: null },
    { id: 3, place: 'sent' as const },
    { id: 4, place: 'archive' as const },
    { id: 5, place: 'trash' as const },
    { id: 6, place: 'spam' as const },
    { id: 7, place: 'archive' as const },
  ];

  test('the Inbox leaves its own folders on either move', () => {
    expect(leavingFolders('inbox', 'archive', folders)).toEqual([1, 2]);
    expect(leavingFolders('inbox', 'trash', folders)).toEqual([1, 2]);
  });

  test('a place leaves every folder of that place, of every account', () => {
    expect(leavingFolders('archive', 'trash', folders)).toEqual([4, 7]);
    expect(leavingFolders('spam', 'archive', folders)).toEqual([6]);
    expect(leavingFolders('trash', 'archive', folders)).toEqual([5]);
  });

  test('archive in Starred or Sent takes the conversation out of the Inbox only, so it stays listed', () => {
    expect(leavingFolders('starred', 'archive', folders)).toEqual([1, 2]);
    expect(leavingFolders('sent', 'archive', folders)).toEqual([1, 2]);
  });

  test('trash in Starred, Sent or All mail moves the whole conversation', () => {
    expect(leavingFolders('starred', 'trash', folders)).toBeNull();
    expect(leavingFolders('sent', 'trash', folders)).toBeNull();
    expect(leavingFolders('all', 'archive', folders)).toBeNull();
  });
});
