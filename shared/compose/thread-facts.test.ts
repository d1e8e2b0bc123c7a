import { describe, expect, test } from 'vitest';
import { factsOf, knownFacts, missingFacts, notCited, unverifiedFacts, writtenPart } from './thread-facts.ts';

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
    ['full-width digits as the number they are', 'It is １２，０００ in all.', [['１２，０００', 'number']]],
    ['Arabic-Indic digits', 'المبلغ ١٢٬٥٠٠ يورو', [['١٢٬٥٠٠', 'number']]],
    [
      'Extended Arabic-Indic and Devanagari digits',
      'pay ۴۰۰ or ४००',
      [
        ['۴۰۰', 'number'],
        ['४००', 'number'],
      ],
    ],
    ['an amount in words', 'twelve thousand euros', [['twelve thousand', 'number']]],
    [
      'a hundreds amount in words',
      'about five hundred, or a hundred and fifty',
      [
        ['five hundred', 'number'],
        ['a hundred and fifty', 'number'],
      ],
    ],
    [
      'a small number in words only before a currency',
      'one of us, two weeks, ten euros',
      [['ten', 'number']],
    ],
    [
      'an IBAN in groups',
      'IBAN DE89 3704 0044 0532 0130 00, thanks',
      [['DE89 3704 0044 0532 0130 00', 'code']],
    ],
    ['an IBAN in one word', 'to DE89370400440532013000.', [['DE89370400440532013000', 'code']]],
    ['a currency code against the digits', 'pay EUR97531 today', [['EUR97531', 'number']]],
    ['an invoice number', 'invoice INV97531 attached', [['INV97531', 'code']]],
    ['no IBAN where the check digits are wrong', 'FY24 plan 2025 ABCD', [['2025', 'number']]],
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
    ['１２，０００', 'The budget is 12,000.'],
    ['١٢٬٠٠٠', 'The budget is 12000.'],
    ['12,000', 'الميزانية ١٢٠٠٠'],
    ['twelve thousand euros', 'The budget is €12,000.'],
    ['€12,000', 'Twelve thousand euros it is.'],
    ['five hundred', 'About 500 dollars.'],
    ['forty-five', 'We have 45 seats.'],
    ['DE89370400440532013000', 'IBAN: DE89 3704 0044 0532 0130 00'],
    ['INV-97531', 'Invoice INV97531 attached.'],
    ['INV97531', 'Your invoice number is 97531.'],
    ['EUR 97,531', 'Please pay EUR97531.'],
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
    ['١٢٠٠١', 'The budget is 12000.'],
    ['twelve thousand', 'The budget is 11,000.'],
    ['DE89370400440532013000', 'IBAN: DE12 5001 0517 0648 4898 90'],
    ['EUR97531', 'Please pay EUR 97,530.'],
    ['INV97531', 'Invoice INV97532 attached.'],
    ['ACCT-20417', 'No account number here.'],
  ])('does not find %s in “%s”', (draft, thread) => {
    expect(found(draft, thread)).toBe(false);
  });

  test('lists each fact not found once, in the order written, with its reason', () => {
    const known = knownFacts(['We can pay $40,000 by Dec 14.', 'Fine, 3pm on the 14th.']);
    expect(
      unverifiedFacts('Agreed: $40,000 by Dec 14 at 3pm, plus $5,000 on Dec 20, or $5,000 later.', known),
    ).toEqual([
      { text: '$5,000', reason: notCited },
      { text: 'Dec 20', reason: notCited },
    ]);
  });
});

test('says which keys would have found each missing fact', () => {
  expect(missingFacts('Pay DE89 3704 0044 0532 0130 00 and 40k.', knownFacts(['We agreed 40,000.']))).toEqual(
    [{ fact: { text: 'DE89 3704 0044 0532 0130 00', kind: 'code' }, needs: ['c:DE89370400440532013000'] }],
  );
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
