import { expect, test } from 'vitest';
import { idleFolders } from './idle-folder.ts';

const seen = new Set(['INBOX', 'Projects', 'Archive']);

test.each([
  { focus: 'Projects', expected: ['Projects', 'INBOX'], why: 'the open folder, seen by the last sync' },
  { focus: null, expected: ['INBOX'], why: 'nothing open' },
  { focus: 'Old', expected: ['INBOX'], why: 'a folder the last sync did not see on the server' },
  { focus: 'INBOX', expected: ['INBOX'], why: 'INBOX itself' },
])('waits on $expected for $why', ({ focus, expected }) => {
  expect(idleFolders(focus, seen)).toEqual(expected);
});

test('before any sync has seen the folders, the wait is on INBOX', () => {
  expect(idleFolders('Projects', new Set())).toEqual(['INBOX']);
});
