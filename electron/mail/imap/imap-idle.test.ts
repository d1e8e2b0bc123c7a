import { expect, test } from 'vitest';
import { changedSince } from './imap-idle.ts';

const seen = { uidNext: 10, exists: 7 };

test.each([
  { now: { uidNext: 10, exists: 7 }, before: seen, changed: false, why: 'the counts the sync saw' },
  { now: { uidNext: 11, exists: 8 }, before: seen, changed: true, why: 'a message that arrived' },
  { now: { uidNext: 10, exists: 6 }, before: seen, changed: true, why: 'a message removed' },
  { now: { uidNext: 12, exists: 7 }, before: seen, changed: true, why: 'one arrived and one removed' },
  { now: { uidNext: 10, exists: 7 }, before: null, changed: false, why: 'a folder the sync did not see' },
])('a SELECT finding $why changed: $changed', ({ now, before, changed }) => {
  expect(changedSince(now, before)).toBe(changed);
});
