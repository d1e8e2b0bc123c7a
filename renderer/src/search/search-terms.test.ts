import { describe, expect, test } from 'vitest';
import { markRanges } from './mark-ranges.ts';
import { searchTerms } from './search-terms.ts';

describe('the words of a search to mark', () => {
  test('words, phrases and prefixes', () => {
    expect(searchTerms('budget "board meeting" plan*')).toEqual([
      { text: 'budget', prefix: false },
      { text: 'board meeting', prefix: false },
      { text: 'plan', prefix: true },
    ]);
  });

  test('subject: and body: are text; other operators, negations and boolean words are not', () => {
    expect(
      searchTerms(
        'from:dana is:unread subject:"Q3 plan" body:venue -lunch NOT dinner OR tea after:2026-01-01',
      ),
    ).toEqual([
      { text: 'Q3 plan', prefix: false },
      { text: 'venue', prefix: false },
      { text: 'tea', prefix: false },
    ]);
  });

  test('an empty query has no terms', () => {
    expect(searchTerms('   ')).toEqual([]);
  });
});

describe('where the terms are in a text', () => {
  const slices = (text: string, query: string) =>
    markRanges(text, searchTerms(query)).map((r) => text.slice(r.start, r.end));

  test('case- and diacritic-insensitive, mapped back to the original letters', () => {
    expect(slices('Frau Müller und MULLER, muller.', 'muller')).toEqual(['Müller', 'MULLER', 'muller']);
    expect(slices('Ein Café au lait', 'CAFE')).toEqual(['Café']);
  });

  test('a decomposed accent stays with its letter', () => {
    const text = 'Cafe\u0301 ouvert';
    expect(slices(text, 'cafe')).toEqual(['Cafe\u0301']);
  });

  test('whole words for a term, word starts for a prefix', () => {
    expect(slices('plan planet plans', 'plan')).toEqual(['plan']);
    expect(slices('plan planet plans', 'plan*')).toEqual(['plan', 'plan', 'plan']);
  });

  test('a phrase matches its words in order across any spacing', () => {
    expect(slices('the board\nmeeting, then the board', '"board meeting"')).toEqual(['board\nmeeting']);
  });

  test('markup in the text is only text to match', () => {
    expect(slices('<b>budget</b> &amp; budget', 'budget')).toEqual(['budget', 'budget']);
  });

  test('no terms, no marks', () => {
    expect(markRanges('anything', [])).toEqual([]);
  });
});
