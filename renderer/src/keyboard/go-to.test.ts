import { expect, test } from 'vitest';
import { goToView } from './go-to.ts';

test("g then i, s, d, t or a goes to Gmail's views", () => {
  expect(['i', 's', 'd', 't', 'a'].map(goToView)).toEqual(['inbox', 'starred', 'drafts', 'sent', 'all']);
});

test('g then any other key goes nowhere', () => {
  expect(['x', 'I', 'Escape', 'g', 'constructor'].map(goToView)).toEqual([null, null, null, null, null]);
});
