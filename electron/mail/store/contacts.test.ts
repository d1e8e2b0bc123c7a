import { expect, test } from 'vitest';
import { fold, startsAWord } from './contacts.ts';

test.each([
  ['Ana Müller', 'mul', true],
  ['Ana Müller', 'MÜL', true],
  ['priya.raman@example.com', 'raman', true],
  ['priya.raman@example.com', 'example', true],
  ['priya.raman@example.com', 'aman', false],
  ['José Ñúñez', 'nun', true],
  ['Zoë', 'zoe', true],
  ['Łukasz', 'lu', false], // Ł has no decomposition: it is its own letter, as in Polish sorting
  ['', 'a', false],
])('%j has a word starting with %j: %s', (text, prefix, expected) => {
  expect(startsAWord(fold(text), fold(prefix))).toBe(expected);
});
