import { expect, test } from 'vitest';
import { sourceLabel, untrustedPreview } from './untrusted-preview.ts';

test('short text shows whole and is not cut', () => {
  expect(untrustedPreview('one\ntwo', 4)).toEqual({ text: 'one\ntwo', cut: false });
});

test('more lines than the preview holds are cut after the last shown line', () => {
  expect(untrustedPreview('1\n2\n3\n4\n5\n6', 4)).toEqual({ text: '1\n2\n3\n4…', cut: true });
});

test('one very long line is cut by characters', () => {
  const preview = untrustedPreview('x'.repeat(1000), 4, 100);
  expect(preview.cut).toBe(true);
  expect(preview.text).toBe(`${'x'.repeat(100)}…`);
});

test('a message source reads as a message number; other sources as they came', () => {
  expect(sourceLabel('message:12')).toBe('message 12');
  expect(sourceLabel('search_mail')).toBe('search_mail');
});
