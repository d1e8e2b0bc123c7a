import { describe, expect, test } from 'vitest';
import { factsOf, knownFacts, notInThread, unverifiedFacts, writtenPart } from './thread-facts.ts';

const found = (draft: string, thread: string) => unverifiedFacts(draft, knownFacts([thread])).length === 0;

describe('reading the facts of a text', () => {
  test.each([
    ['a plain number', 'We need 12 chairs.', [['12', 'number']]],
    ['an amount with a sign and commas', 'It costs $40,000 in all.', [['$40,000', 'number']]],
    ['a k suffix', 'about 40k', [['40k', 'number']]],
    ['a percent', 'a 15% discount', [['15%', 'number']]],
    ['an ISO date', 'on 2026-12-14.', [['2026-12-14', 'date']]],
    [
      'an ISO timestamp as its date',
      'Date: 2026-11-30T11:00:00.000Z',
      [['2026-11-30T11:00:00.000Z', 'date']],
    ],
    ['a month and day', 'See you Dec 14.', [['Dec 14', 'date']]],
    ['a day and month with a year', 'on 14th of December 2026', [['14th of December 2026', 'date']]],
    ['a numeric date', 'due 12/14', [['12/14', 'date']]],
    ['a bare ordinal day', 'yes to the 14th', [['14th', 'date']]],
    ['a time with pm', 'at 3pm', [['3pm', 'time']]],
    ['a 24-hour time', 'at 15:00', [['15:00', 'time']]],
    ['noon', 'at noon', [['noon', 'time']]],
    ['nothing inside an id or a word', 'see [m12] and v2 of the 3D plan', []],
    [
      'each number of a list',
      '1,2 and 3',
      [
        ['1', 'number'],
        ['2', 'number'],
        ['3', 'number'],
      ],
    ],
  ])('reads %s', (_what, text, facts) => {
    expect(factsOf(text).map((f) => [f.text, f.kind])).toEqual(facts);
  });
});

describe('finding a draft’s facts in the thread', () => {
  test.each([
    ['40,000', 'The budget is 40000.'],
    ['40000', 'The budget is 40,000.'],
    ['40k', 'The budget is $40,000.'],
    ['$40,000', 'The budget is 40k.'],
    ['$40,000.00', 'The budget is 40,000 dollars.'],
    ['1.5 million', 'The offer is 1,500,000.'],
    ['Dec 14', 'Shall we meet on 14 December?'],
    ['14 December', 'Deadline: 2026-12-14'],
    ['2026-12-14', 'Deadline is December 14th, 2026.'],
    ['2026-12-14', 'Deadline is Dec 14.'],
    ['12/14', 'Deadline is Dec 14.'],
    ['14/12/2026', 'Deadline is 2026-12-14.'],
    ['the 14th', 'How about Dec 14?'],
    ['3pm', 'Call at 15:00.'],
    ['15:00', 'Call at 3 p.m.'],
    ['3:30 PM', 'Call at 3:30?'],
    ['noon', 'Lunch at 12pm.'],
  ])('finds %s in “%s”', (draft, thread) => {
    expect(found(draft, thread)).toBe(true);
  });

  test.each([
    ['45,000', 'The budget is 40,000.'],
    ['40', 'The budget is 40,000.'],
    ['Dec 15', 'Deadline is Dec 14.'],
    ['2027-12-14', 'Deadline is 2026-12-14.'],
    ['the 15th', 'Deadline is Dec 14.'],
    ['4pm', 'Call at 15:00.'],
    ['14', 'Deadline is Dec 14.'],
    ['3:30 PM', 'Call at 4:30.'],
  ])('does not find %s in “%s”', (draft, thread) => {
    expect(found(draft, thread)).toBe(false);
  });

  test('lists each fact not found once, in the order written, with its reason', () => {
    const known = knownFacts(['We can pay $40,000 by Dec 14.', 'Fine, 3pm on the 14th.']);
    expect(
      unverifiedFacts('Agreed: $40,000 by Dec 14 at 3pm, plus $5,000 on Dec 20, or $5,000 later.', known),
    ).toEqual([
      { text: '$5,000', reason: notInThread },
      { text: 'Dec 20', reason: notInThread },
    ]);
  });
});

describe('the part of a reply the writer wrote', () => {
  test('stops at the signature', () => {
    expect(writtenPart('Yes, 40k.\n\n-- \nBob, +1 555 0100\n')).toBe('Yes, 40k.\n');
  });

  test('stops at the quote and its attribution', () => {
    expect(writtenPart('Yes.\n\nOn Tue, 3 Mar 2026 at 14:05, Priya wrote:\n> 40k?\n')).toBe('Yes.\n');
  });

  test('is the whole body when there is neither', () => {
    expect(writtenPart('I wrote: yes.\nBye')).toBe('I wrote: yes.\nBye');
  });
});
