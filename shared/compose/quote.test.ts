import { describe, expect, test } from 'vitest';
import type { Original } from './composition.ts';
import {
  attribution,
  dateText,
  maxQuotedChars,
  originalText,
  quoteLines,
  shortenedNote,
  textLines,
} from './quote.ts';

const quote = (text: string) => quoteLines(textLines(text));

describe('quoting the original', () => {
  test.each([
    ['one line', 'Noon?', '> Noon?'],
    ['lines', 'Noon?\nOr one?', '> Noon?\n> Or one?'],
    ['CRLF line ends as lines', 'Noon?\r\nOr one?\r\n', '> Noon?\n> Or one?'],
    ['a lone CR as a line end', 'Noon?\rOr one?', '> Noon?\n> Or one?'],
    ['a blank line as a bare marker', 'Hi,\n\nNoon?', '> Hi,\n>\n> Noon?'],
    ['a line of spaces as blank', 'Hi,\n   \nNoon?', '> Hi,\n>\n> Noon?'],
    ['a quoted line once more, without a space', '> Noon?\n>> Yes', '>> Noon?\n>>> Yes'],
    ['a quoted line with spaces as written', '> > Noon?', '>> > Noon?'],
    ['without the blank lines around the text', '\n\n  \nNoon?\n\n\n', '> Noon?'],
    ['without trailing spaces', 'Noon?   \nOr one?\t', '> Noon?\n> Or one?'],
    ['leading spaces as written', '    indented code', '>     indented code'],
  ])('quotes %s', (_what, text, quoted) => {
    expect(quote(text)).toBe(quoted);
  });

  test.each([[''], ['\r\n\r\n'], ['   \n\t']])('an empty body %j quotes nothing', (text) => {
    expect(textLines(text)).toEqual([]);
  });

  test('a long line is kept whole, not wrapped', () => {
    const url = `https://example.com/${'a'.repeat(3000)}`;
    expect(quote(`See ${url} now`)).toBe(`> See ${url} now`);
  });

  test('a text longer than the bound is cut at a line and says so', () => {
    const line = 'x'.repeat(99);
    const lines = textLines(Array.from({ length: 1000 }, () => line).join('\n'));
    expect(lines.at(-1)).toBe(shortenedNote);
    expect(lines.slice(0, -1).every((l) => l === line)).toBe(true);
    expect(lines.slice(0, -1).join('\n').length).toBeLessThanOrEqual(maxQuotedChars);
    expect(lines.length - 1).toBe(Math.floor(maxQuotedChars / 100));
  });

  test('one line longer than the bound is cut inside, never through a surrogate pair', () => {
    const emoji = '😀'; // two UTF-16 code units
    const lines = textLines(`${'x'.repeat(maxQuotedChars - 1)}${emoji}${'y'.repeat(10)}`);
    expect(lines).toEqual(['x'.repeat(maxQuotedChars - 1), shortenedNote]);
  });
});

const original = (fields: Partial<Original>): Original => ({
  id: 1,
  messageId: '<1@x>',
  references: [],
  subject: 'Lunch',
  from: { name: 'Priya Raman', address: 'priya@example.com' },
  to: [],
  cc: [],
  date: Date.UTC(2026, 2, 3, 14, 5),
  text: '',
  attachments: [],
  ...fields,
});

describe('the line above the quote', () => {
  test.each([
    ['name and date', {}, 'On Tue, 3 Mar 2026 at 14:05, Priya Raman wrote:'],
    [
      'the address when there is no name',
      { from: { name: '', address: 'priya@example.com' } },
      'On Tue, 3 Mar 2026 at 14:05, priya@example.com wrote:',
    ],
    ['no date when it had none', { date: 0 }, 'Priya Raman wrote:'],
    ['someone, for a message with no sender', { from: { name: '', address: '' }, date: 0 }, 'Someone wrote:'],
  ])('names %s', (_what, fields, line) => {
    expect(attribution(original(fields), { timeZone: 'UTC' })).toBe(line);
  });

  test.each([
    ['UTC', 'Tue, 3 Mar 2026 at 14:05'],
    ['Asia/Tokyo', 'Tue, 3 Mar 2026 at 23:05'],
    ['America/Los_Angeles', 'Tue, 3 Mar 2026 at 06:05'],
  ])('writes the date in the time zone %s', (timeZone, text) => {
    expect(dateText(Date.UTC(2026, 2, 3, 14, 5), { timeZone })).toBe(text);
  });

  test('writes midnight and September as 00 and Sep', () => {
    expect(dateText(Date.UTC(2026, 8, 7, 0, 0), { timeZone: 'UTC' })).toBe('Mon, 7 Sep 2026 at 00:00');
  });
});

describe('the text a reply or forward quotes', () => {
  test('is the text when the message has some', () => {
    expect(originalText(original({ text: 'Noon?', html: '<p>Other</p>' }), { htmlText: () => 'HTML' })).toBe(
      'Noon?',
    );
  });

  test('is the rendering of its HTML when it has HTML only', () => {
    const seen: string[] = [];
    const text = originalText(original({ text: ' \n', html: '<p>Noon?</p>' }), {
      htmlText: (html) => {
        seen.push(html);
        return 'Noon?';
      },
    });
    expect(text).toBe('Noon?');
    expect(seen).toEqual(['<p>Noon?</p>']);
  });

  test('is empty for HTML only when no renderer is given', () => {
    expect(originalText(original({ html: '<p>Noon?</p>' }))).toBe('');
  });
});
