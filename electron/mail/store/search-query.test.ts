import { describe, expect, test } from 'vitest';
import { parseSearchQuery, type SearchNode, SearchQueryError, type TextField } from './search-query.ts';

// Tuesday 10 March 2026, 12:00 in the machine's own time zone: dates and durations are local days.
const now = new Date(2026, 2, 10, 12, 0, 0).getTime();
const parse = (q: string) => parseSearchQuery(q, { now });
const localDay = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime();

const w = (text: string, field: TextField | null = null, prefix = false): SearchNode => ({
  kind: 'text',
  field,
  text,
  prefix,
});
const and = (...items: SearchNode[]): SearchNode => ({ kind: 'and', items });
const or = (...items: SearchNode[]): SearchNode => ({ kind: 'or', items });
const not = (item: SearchNode): SearchNode => ({ kind: 'not', item });
const since = (at: number): SearchNode => ({ kind: 'date', bound: 'since', at });
const earlierThan = (at: number): SearchNode => ({ kind: 'date', bound: 'before', at });

describe('parseSearchQuery', () => {
  test.each<[string, SearchNode | null]>([
    // words, phrases, prefixes
    ['invoice', w('invoice')],
    ['invoice 1042', and(w('invoice'), w('1042'))],
    ['"pay herr"', w('pay herr')],
    ['conf*', w('conf', null, true)],
    ['"quarterly rep"*', w('quarterly rep', null, true)],
    ['carol@example.org', w('carol@example.org')],
    ['https://example.com/a', w('https://example.com/a')],
    ['"foo:bar"', w('foo:bar')],
    ['NEAR(budget "team meeting", 5)', { kind: 'near', phrases: ['budget', 'team meeting'], distance: 5 }],
    ['NEAR(budget meeting)', { kind: 'near', phrases: ['budget', 'meeting'], distance: null }],
    // columns, quoted and prefixed values
    ['from:ana', w('ana', 'from')],
    ['From:Ana', w('Ana', 'from')],
    ['to:bob', w('bob', 'to')],
    ['cc:carol', w('carol', 'cc')],
    ['subject:invoice', w('invoice', 'subject')],
    ['body:paid', w('paid', 'body')],
    ['from:car*', w('car', 'from', true)],
    ['from:"Ana Müller"', w('Ana Müller', 'from')],
    ['subject:"quarterly rep"*', w('quarterly rep', 'subject', true)],
    ['from:ana@example.com', w('ana@example.com', 'from')],
    // flags, attachments, labels, places
    ['is:unread', { kind: 'is', state: 'unread' }],
    ['is:READ', { kind: 'is', state: 'read' }],
    ['is:starred', { kind: 'is', state: 'starred' }],
    ['has:attachment', { kind: 'has', what: 'attachment' }],
    ['label:todo', { kind: 'label', name: 'todo' }],
    ['label:"Project X"', { kind: 'label', name: 'Project X' }],
    ...(['inbox', 'trash', 'spam', 'sent', 'drafts', 'archive', 'anywhere'] as const).map(
      (place): [string, SearchNode] => [`in:${place}`, { kind: 'place', place }],
    ),
    ['in:Inbox', { kind: 'place', place: 'inbox' }],
    ['in:draft', { kind: 'place', place: 'drafts' }],
    ['in:Projects', { kind: 'folder', name: 'Projects' }],
    ['in:"Sent Items"', { kind: 'folder', name: 'Sent Items' }],
    ['in:Work/Clients', { kind: 'folder', name: 'Work/Clients' }],
    // dates: the start of a local day; after:/newer: on or after it, before:/older: before it
    ['after:2026-01-15', since(localDay(2026, 1, 15))],
    ['after:2026/1/5', since(localDay(2026, 1, 5))],
    ['newer:2024-02-29', since(localDay(2024, 2, 29))],
    ['before:2026/01/15', earlierThan(localDay(2026, 1, 15))],
    ['older:2026-12-31', earlierThan(localDay(2026, 12, 31))],
    // durations, back from now on the local calendar
    ['newer_than:7d', since(localDay(2026, 3, 3, 12))],
    ['older_than:2w', earlierThan(localDay(2026, 2, 24, 12))],
    ['newer_than:3m', since(localDay(2025, 12, 10, 12))],
    ['older_than:1Y', earlierThan(localDay(2025, 3, 10, 12))],
    ['newer_than:0d', since(now)],
    // precedence: NOT, then OR, then AND
    ['a OR b c', and(or(w('a'), w('b')), w('c'))],
    ['a b OR c', and(w('a'), or(w('b'), w('c')))],
    ['NOT a OR b', or(not(w('a')), w('b'))],
    ['a AND b', and(w('a'), w('b'))],
    ['lunch NOT conference', and(w('lunch'), not(w('conference')))],
    ['-from:ana', not(w('ana', 'from'))],
    ['-"exact words"', not(w('exact words'))],
    ['--a', w('a')],
    ['e-mail', w('e-mail')],
    ['(a OR b) c', and(or(w('a'), w('b')), w('c'))],
    ['-(a b)', not(and(w('a'), w('b')))],
    ['{a b c}', or(w('a'), w('b'), w('c'))],
    [
      'is:unread OR is:starred has:attachment',
      and(or({ kind: 'is', state: 'unread' }, { kind: 'is', state: 'starred' }), {
        kind: 'has',
        what: 'attachment',
      }),
    ],
    // an operator over a group applies to each word in it
    ['subject:(dinner movie)', and(w('dinner', 'subject'), w('movie', 'subject'))],
    ['from:(ana OR -dan)', or(w('ana', 'from'), not(w('dan', 'from')))],
    [
      'label:(todo OR "Project X")',
      or({ kind: 'label', name: 'todo' }, { kind: 'label', name: 'Project X' }),
    ],
    // syntax never fails
    ['"lunch', w('lunch')],
    ['(a b', and(w('a'), w('b'))],
    ['a) b', and(w('a'), w('b'))],
    ['a OR', w('a')],
    ['OR a', w('a')],
    ['a NOT', w('a')],
    ['{a OR b', or(w('a'), w('b'))],
    ['@@ ::', null],
    ['()', null],
    ['- *', null],
    ['', null],
  ])('%s', (q, expected) => {
    expect(parse(q)).toEqual(expected);
  });

  test('clamps a duration in months to the last day of a shorter month', () => {
    const may31 = new Date(2026, 4, 31, 9).getTime();
    expect(parseSearchQuery('newer_than:3m', { now: may31 })).toEqual(since(localDay(2026, 2, 28, 9)));
    expect(parseSearchQuery('older_than:1y', { now: new Date(2028, 1, 29).getTime() })).toEqual(
      earlierThan(localDay(2027, 2, 28)),
    );
  });

  test.each([
    ['foo:bar', 'unknown_operator', 'Skimmer does not know the search operator foo: (in foo:bar).'],
    ['invoice re:budget', 'unknown_operator', 'put it in quotes: "re:budget"'],
    ['-filename:"a b.pdf"', 'unknown_operator', 'operator filename: (in filename:"a b.pdf")'],
    [
      'has:drive',
      'unknown_operator',
      'Skimmer does not know the search operator has:drive; has: takes attachment.',
    ],
    ['is:important', 'unknown_operator', 'is:important; is: takes unread, read or starred.'],
    ['from:', 'bad_value', 'from: needs a value right after the colon'],
    ['label: x', 'bad_value', 'label: needs a value'],
    ['subject:(is:unread)', 'bad_value', 'subject:(…) takes words and phrases only'],
    [
      'after:2026-13-01',
      'bad_value',
      'after: takes a date written YYYY-MM-DD or YYYY/MM/DD, such as 2026-01-31; "2026-13-01" is not one.',
    ],
    ['before:2026-02-29', 'bad_value', '"2026-02-29"'],
    ['after:2026-00-10', 'bad_value', '"2026-00-10"'],
    ['after:yesterday', 'bad_value', '"yesterday"'],
    ['before:01/15/2026', 'bad_value', '"01/15/2026"'],
    ['after:2026-01/15', 'bad_value', '"2026-01/15"'],
    ['older_than:7', 'bad_value', 'older_than: takes a number and d, w, m or y'],
    ['newer_than:7x', 'bad_value', '"7x"'],
    ['newer_than:d', 'bad_value', '"d"'],
    ['newer_than:-1d', 'bad_value', '"-1d"'],
  ])('refuses %s, naming it', (q, reason, sentence) => {
    let error: unknown;
    try {
      parse(q);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SearchQueryError);
    expect(error).toMatchObject({ reason });
    expect((error as Error).message).toContain(sentence);
  });
});

// Red-team items 8 and 10: a query's cost is bounded before it runs, and a control character is refused with a
// sentence (a NUL inside an FTS5 string was an internal SqliteError).
describe('the bounds of a query', () => {
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  // 120 prefixes in 455 characters: every letter, then two-letter ones.
  const hostile = `{${[...letters, ...letters.flatMap((a) => [...'aeioulnrst'].map((b) => `${a}${b}`))]
    .slice(0, 120)
    .map((p) => `${p}*`)
    .join(' ')}}`;

  const refusal = (q: string): SearchQueryError => {
    try {
      parse(q);
    } catch (e) {
      if (e instanceof SearchQueryError) return e;
      throw e;
    }
    throw new Error(`${JSON.stringify(q)} was not refused`);
  };

  test.each([
    [hostile, 'too_costly', 'That search has 120 words ending in *; Skimmer takes at most 6 in one search'],
    [
      'a* OR b* OR c* OR d* OR e* OR f* OR g* OR h* OR i* OR j* OR k* OR l*',
      'too_costly',
      'That search has 12 words ending in *',
    ],
    ['subject:(ab* ac* ad*) -from:(ae* af* ag* ah*)', 'too_costly', 'That search has 7 words ending in *'],
    ['a* b*', 'too_costly', 'That search has 2 single letters or digits ending in * (such as a*)'],
    ['from:ana@x* -"quarterly r"*', 'too_costly', 'has 2 single letters or digits ending in *'],
    [Array.from({ length: 51 }, (_, i) => `w${i}`).join(' OR '), 'too_costly', 'That search has 51 words'],
    ['"one two three four five six seven eight nine ten" '.repeat(6), 'too_costly', 'has 60 words'],
    [
      'to:\u0000budget',
      'bad_value',
      'A search cannot hold control characters; this one has U+0000 (character 4).',
    ],
    ['budget\u001b[31m', 'bad_value', 'U+001B'],
    ['in:\u007fInbox', 'bad_value', 'U+007F'],
    ['"a\u0085b"', 'bad_value', 'U+0085'],
  ])('refuses %j with a sentence', (q, reason, sentence) => {
    const e = refusal(q);
    expect(e.reason).toBe(reason);
    expect(e.message).toContain(sentence);
  });

  test.each([
    'a*',
    '1*',
    'a* bc* de* fg* hi* jk*',
    Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '),
    'budget\tmeeting\nnotes\r\nfriday\u000bnext\u000cweek',
  ])('takes %j', (q) => {
    expect(parse(q)).not.toBeNull();
  });
});
