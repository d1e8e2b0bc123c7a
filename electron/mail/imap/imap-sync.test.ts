import { expect, test } from 'vitest';
import { unchangedSince } from './imap-sync.ts';

const before = { uidValidity: 7, highestModseq: 40, uidNext: 101 };
const same = { uidValidity: 7n, highestModseq: 40n, uidNext: 101, messages: 100 };

test.each([
  ['everything as the last sync left it', before, same, true],
  ['a flag changed or a message came (HIGHESTMODSEQ)', before, { ...same, highestModseq: 41n }, false],
  ['a new message (UIDNEXT)', before, { ...same, uidNext: 102 }, false],
  ['an expunge where the server has no QRESYNC (the count)', before, { ...same, messages: 99 }, false],
  ['a new UIDVALIDITY', before, { ...same, uidValidity: 8n }, false],
  ['a server that gave no HIGHESTMODSEQ', before, { ...same, highestModseq: undefined }, false],
  [
    'a folder never synced to the end',
    { uidValidity: null, highestModseq: null, uidNext: null },
    same,
    false,
  ],
  ['a folder synced before UIDNEXT was stored', { ...before, uidNext: null }, same, false],
])('%s: unchanged is %s', (_name, state, listed, unchanged) => {
  expect(unchangedSince(state, listed, () => 100)).toBe(unchanged);
});
