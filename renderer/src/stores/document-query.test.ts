import { expect, test } from 'vitest';
import { documentQuery } from './document-query.ts';

test.each([
  'is:unread',
  'is:unread budget',
  'budget from:priya',
  'budget -from:priya',
  '(from:ana OR from:dan) invoice',
  'subject:"field guide"',
  'before:2026-01-01',
  'older_than:7d',
  'IS:UNREAD',
  'from:',
  'label:(work)',
  'foo:bar',
])('%j holds a mail operator: only the mail is searched', (query) => {
  expect(documentQuery(query)).toBeNull();
});

test.each([
  'quokka',
  'budget survey',
  '"is:unread" in a phrase',
  'quokka OR koala -wallaby',
  'conf*',
  'https://example.com/guide',
  'NEAR("quokka" island, 5)',
  'NEAR(from:x y)',
  'ratio 3:2',
  '12:30 lunch',
  '"unclosed from:x',
])('%j is words: the documents are searched with it as typed', (query) => {
  expect(documentQuery(query)).toBe(query);
});
