import { expect, test } from 'vitest';
import { prettyArgs, shortArgs } from './tool-call-summary.ts';

test('an object shows as key: value pairs in compact JSON', () => {
  expect(shortArgs({ query: 'newsletter', limit: 20 })).toBe('query: "newsletter", limit: 20');
  expect(shortArgs({ ids: [12, 13] })).toBe('ids: [12,13]');
  expect(shortArgs({})).toBe('');
});

test('other shapes show as compact JSON, and nothing as empty', () => {
  expect(shortArgs(['a'])).toBe('["a"]');
  expect(shortArgs('text')).toBe('"text"');
  expect(shortArgs(undefined)).toBe('');
});

test('long arguments are cut with an ellipsis at the limit', () => {
  const shown = shortArgs({ body: 'x'.repeat(500) }, 40);
  expect(shown).toHaveLength(40);
  expect(shown.endsWith('…')).toBe(true);
});

test('pretty arguments are indented JSON', () => {
  expect(prettyArgs({ ids: [1] })).toBe('{\n  "ids": [\n    1\n  ]\n}');
  expect(prettyArgs(undefined)).toBe('undefined');
});

test('both forms show characters that draw nothing as marks naming them (issue 27)', () => {
  const body = `Paid.${String.fromCodePoint(0xe0049, 0xe0042, 0xe0041, 0xe004e)}\u202E`;
  expect(shortArgs({ body })).toBe(
    'body: "Paid.⟦hidden text in tag characters: “IBAN”⟧⟦right-to-left override U+202E⟧"',
  );
  expect(prettyArgs({ body })).toContain(
    '"Paid.⟦hidden text in tag characters: “IBAN”⟧⟦right-to-left override U+202E⟧"',
  );
});
