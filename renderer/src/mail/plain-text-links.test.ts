import { expect, test } from 'vitest';
import { splitPlainTextLinks } from './plain-text-links.ts';

test('finds web and mailto addresses and leaves trailing punctuation in the text', () => {
  expect(splitPlainTextLinks('See https://example.com/a?b=1. Or mailto:x@example.com, thanks')).toEqual([
    { kind: 'text', text: 'See ', start: 0 },
    { kind: 'link', text: 'https://example.com/a?b=1', start: 4 },
    { kind: 'text', text: '. Or ', start: 29 },
    { kind: 'link', text: 'mailto:x@example.com', start: 34 },
    { kind: 'text', text: ', thanks', start: 54 },
  ]);
});

test('does not treat other schemes as links', () => {
  expect(splitPlainTextLinks('javascript:alert(1) file:///etc')).toEqual([
    { kind: 'text', text: 'javascript:alert(1) file:///etc', start: 0 },
  ]);
});
