import { expect, test } from 'vitest';
import { displayText, hasDirectionControls } from './display-text.ts';

test('shows an attachment name in its real order, so the real extension is visible', () => {
  expect(displayText('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
  expect(hasDirectionControls('invoice\u202efdp.exe')).toBe(true);
});

test('removes isolates and marks too, and leaves other text alone', () => {
  expect(displayText('\u2067abc\u2069 \u200fשלום\u200e café')).toBe('abc שלום café');
  expect(hasDirectionControls('plain text')).toBe(false);
});
