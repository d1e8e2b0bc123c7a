import { expect, test } from 'vitest';
import { parsePrice } from './price-text.ts';

test.each([
  ['', null],
  ['  ', null],
  ['0.15', 0.15],
  ['$2.50', 2.5],
  ['3', 3],
  ['10000', 10_000],
  ['10000.01', undefined],
  ['-1', undefined],
  ['1e3', undefined],
  ['0,15', undefined],
  ['free', undefined],
])('reads the price %j as %j', (text, price) => {
  expect(parsePrice(text)).toBe(price);
});
