import { describe, expect, test } from 'vitest';
import {
  foldPlainText,
  isAttributionElement,
  isAttributionText,
  isOriginalMessageLine,
  isQuoteContainer,
  isTailQuoteStart,
  keepsOwnText,
} from './quote-fold.ts';

const kinds = (text: string) => foldPlainText(text).map((s) => [s.kind, s.text]);

describe('plain-text quotes', () => {
  test('a reply folds the quote and the line that introduces it', () => {
    const text =
      'Yes, Thursday works.\n\nOn Mon, 30 Nov 2026 at 09:00, Dana <dana@example.com> wrote:\n> Can we move it?\n> Thursday?\n';
    expect(kinds(text)).toEqual([
      ['text', 'Yes, Thursday works.\n\n'],
      [
        'quote',
        'On Mon, 30 Nov 2026 at 09:00, Dana <dana@example.com> wrote:\n> Can we move it?\n> Thursday?\n',
      ],
    ]);
  });

  test('the segments give the text back exactly, with their offsets, CRLF included', () => {
    const text = 'Top\r\n\r\nDana wrote:\r\n> a\r\n> b\r\n\r\n-- \r\nSig';
    const segments = foldPlainText(text);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    for (const s of segments) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
    expect(segments.map((s) => s.kind)).toEqual(['text', 'quote', 'text']);
  });

  test('nested quotes fold as one run with the outer quote', () => {
    const text =
      'Agreed.\n\nOn Tue, Bo wrote:\n> Fine by me.\n>\n> On Mon, Dana wrote:\n>> Can we move it?\n>> Thursday?\n';
    const segments = foldPlainText(text);
    expect(segments).toHaveLength(2);
    expect(segments[1]?.kind).toBe('quote');
    expect(segments[1]?.text).toContain('>> Thursday?');
  });

  test('an attribution wrapped over two lines folds with its quote', () => {
    const text = 'Ok.\n\nOn Mon, 30 Nov 2026 at 09:00, Dana Smith <dana@example.com>\nwrote:\n> one\n> two\n';
    expect(kinds(text)[1]).toEqual([
      'quote',
      'On Mon, 30 Nov 2026 at 09:00, Dana Smith <dana@example.com>\nwrote:\n> one\n> two\n',
    ]);
  });

  test('a German attribution folds too', () => {
    const text = 'Gut.\n\nAm 30.11.2026 um 09:00 schrieb Dana <d@x>:\n> eins\n';
    expect(kinds(text)[1]?.[0]).toBe('quote');
  });

  test('answers written between the quoted lines keep single quoted lines and fold longer runs', () => {
    const text =
      '> Budget?\nApproved.\n> Venue, date,\n> and the caterer?\n> All three?\nThe hall on the 4th.\n';
    expect(foldPlainText(text).map((s) => s.kind)).toEqual(['text', 'quote', 'text']);
    expect(foldPlainText(text)[0]?.text).toBe('> Budget?\nApproved.\n');
  });

  test('a message that is all quote is not folded at all', () => {
    const text = 'On Mon, Dana wrote:\n> everything\n> here\n';
    expect(kinds(text)).toEqual([['text', text]]);
  });

  test('a message without quotes is one text segment, an empty one none', () => {
    expect(kinds('Hello,\nsee you.')).toEqual([['text', 'Hello,\nsee you.']]);
    expect(foldPlainText('')).toEqual([]);
  });

  test('a line ending in "wrote:" with no quote after it is the message’s own', () => {
    expect(kinds('This is what she wrote:\n\nnothing more.')).toEqual([
      ['text', 'This is what she wrote:\n\nnothing more.'],
    ]);
  });
});

describe('Outlook’s unmarked quotes', () => {
  test('everything from "-----Original Message-----" to the end folds', () => {
    const text =
      'Works for me.\n\n-----Original Message-----\nFrom: Dana <dana@example.com>\nSent: Monday\n\nThe plan.\n';
    expect(kinds(text)).toEqual([
      ['text', 'Works for me.\n\n'],
      ['quote', '-----Original Message-----\nFrom: Dana <dana@example.com>\nSent: Monday\n\nThe plan.\n'],
    ]);
  });

  test('a rule of underscores folds only when a From: header follows it', () => {
    const reply = 'Yes.\n________________________________\nFrom: Dana\nSent: Monday\nThe plan.';
    expect(kinds(reply)).toEqual([
      ['text', 'Yes.\n'],
      ['quote', '________________________________\nFrom: Dana\nSent: Monday\nThe plan.'],
    ]);
    const signature = 'Yes.\n________________________________\nDana Reyes, Acme';
    expect(kinds(signature)).toEqual([['text', signature]]);
  });

  test('a forward’s content is not a quote, and a message that is all tail is not folded', () => {
    const forward = 'FYI\n---------- Forwarded message ---------\nFrom: Bo\nThe plan.';
    expect(kinds(forward)).toEqual([['text', forward]]);
    const allTail = '-----Original Message-----\nFrom: Dana\nThe plan.';
    expect(kinds(allTail)).toEqual([['text', allTail]]);
  });

  test('the separator in other languages; the HTML starts of the tail', () => {
    expect(isOriginalMessageLine('-----Ursprüngliche Nachricht-----')).toBe(true);
    expect(isOriginalMessageLine(' ----- Original Message ----- ')).toBe(true);
    expect(isOriginalMessageLine('Original Message')).toBe(false);
    const el = (tag: string, id: string | null = null) => ({ tag, classes: [], type: null, id });
    expect(isTailQuoteStart(el('div', 'user-content-divRplyFwdMsg'), 'From: Dana')).toBe(true);
    expect(isTailQuoteStart(el('div', 'divRplyFwdMsg'), '')).toBe(true);
    expect(isTailQuoteStart(el('p'), '-----Original Message-----')).toBe(true);
    expect(isTailQuoteStart(el('p'), 'From: Dana')).toBe(false);
    expect(isTailQuoteStart(el('td'), '-----Original Message-----')).toBe(false);
  });
});

describe('HTML quotes', () => {
  const shape = (tag: string, classes: string[] = [], type: string | null = null) => ({ tag, classes, type });

  test('each client’s form is a quote', () => {
    expect(isQuoteContainer(shape('div', ['gmail_quote']))).toBe(true); // Gmail
    expect(isQuoteContainer(shape('blockquote', [], 'cite'))).toBe(true); // Apple Mail, Thunderbird
    expect(isQuoteContainer(shape('BLOCKQUOTE'))).toBe(true); // a reply's plain blockquote
    expect(isQuoteContainer(shape('div', ['yahoo_quoted']))).toBe(true); // Yahoo
  });

  test('other elements are not', () => {
    expect(isQuoteContainer(shape('div', ['gmail_signature']))).toBe(false);
    expect(isQuoteContainer(shape('p', ['gmail_quote']))).toBe(false);
  });

  test('attributions by class or by their words', () => {
    expect(isAttributionElement(shape('div', ['moz-cite-prefix']), 'anything')).toBe(true);
    expect(isAttributionElement(shape('div', ['gmail_attr']), '')).toBe(true);
    expect(isAttributionElement(shape('div'), 'On 30 Nov 2026, at 09:00, Dana <d@x> wrote:')).toBe(true);
    expect(isAttributionElement(shape('div'), 'Here is the plan for Thursday.')).toBe(false);
    expect(isAttributionText('Le lun. 30 nov. 2026, Dana a écrit :')).toBe(true);
  });

  test('folding must leave some of the message’s own text', () => {
    expect(keepsOwnText('Thanks!  On Mon, Dana wrote: the plan', ['On Mon, Dana wrote: the plan'])).toBe(
      true,
    );
    expect(keepsOwnText(' On Mon, Dana wrote:\n the plan ', ['On Mon, Dana wrote: the plan'])).toBe(false);
  });
});
