import { describe, expect, test } from 'vitest';
import { checkBounds, type Source } from './bounds.ts';
import { checkAnswer } from './citations.ts';

const ids = ['m1', 'm2', 'doc-3'];
const json = (answer: string, citations: unknown) => JSON.stringify({ answer, citations });
/** The sentence a refusal carries for the user (the message is the code's generic one). */
function detailOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toMatchObject({ code: 'bad_answer' });
    return (e as { providerDetail?: string }).providerDetail ?? '';
  }
  throw new Error('it did not throw');
}

describe('checkAnswer', () => {
  test('accepts an answer whose inline citations equal its list', () => {
    expect(checkAnswer(json('Alice paid [m1]; the plan moved [doc-3].', ['m1', 'doc-3']), ids)).toEqual({
      answer: 'Alice paid [m1]; the plan moved [doc-3].',
      citations: ['m1', 'doc-3'],
      cited: true,
    });
  });

  test('an answer without citations is an uncited draft', () => {
    expect(checkAnswer(json('Nothing to cite.', []), ids)).toMatchObject({ cited: false, citations: [] });
    expect(checkAnswer(JSON.stringify({ answer: 'No list at all.' }), ids)).toMatchObject({ cited: false });
  });

  test('tolerates a json fence, not prose around the object', () => {
    expect(checkAnswer(`\`\`\`json\n${json('Yes [m2].', ['m2'])}\n\`\`\``, ids).cited).toBe(true);
    expect(detailOf(() => checkAnswer(`Here you go: ${json('Yes [m2].', ['m2'])}`, ids))).toMatch(
      /JSON object/,
    );
  });

  test.each([
    ['not JSON', 'Alice paid.', /JSON object/],
    // What is left of a JSON answer when a piece of it never arrived (DESIGN §6: a lost frame is a notice).
    ['JSON with a piece missing', '{"answer": "Alice paid [m1].", "citat', /JSON object/],
    ['an array', '[1,2]', /not a JSON object/],
    ['an empty answer', json('  ', []), /empty/],
    ['an unknown id in the list', json('Paid [m9].', ['m9']), /"m9", which is not one of the sources/],
    ['an unknown id inline', json('Paid [m9].', []), /\[m9\] inline/],
    ['a cited id missing inline', json('Paid.', ['m1']), /"m1" is in the citations but not cited/],
    [
      'an inline id missing from the list',
      json('Paid [m1] [m2].', ['m1']),
      /\[m2\] is cited in the text but not/,
    ],
    ['a duplicate in the list', json('Paid [m1].', ['m1', 'm1']), /cited twice/],
    ['citations that are not strings', json('Paid [m1].', [1]), /not a list of source ids/],
    ['an answer over 16 KiB', json(`${'x'.repeat(16 * 1024)} [m1]`, ['m1']), /16 KiB/],
  ])('refuses %s as bad_answer', (_name, text, message) => {
    expect(detailOf(() => checkAnswer(text, ids))).toMatch(message);
  });
});

describe('checkBounds', () => {
  const source = (id: string, size = 10): Source => ({ id, title: id, text: 'a'.repeat(size) });
  test.each([
    ['no source', [], /1 to 8 sources/],
    ['nine sources', Array.from({ length: 9 }, (_, i) => source(`s${i}`)), /1 to 8 sources/],
    ['a bad id', [source('has space')], /not 1–16 letters/],
    ['duplicate ids', [source('a'), source('a')], /Two sources have the id "a"/],
    ['a source over 16 KiB', [source('a', 16 * 1024 + 1)], /"a" is over the 16 KiB/],
    [
      'sources over 32 KiB together',
      [source('a', 16 * 1024), source('b', 16 * 1024), source('c', 1)],
      /32 KiB/,
    ],
  ])('names the bound for %s', (_name, sources, message) => {
    expect(checkBounds(sources as Source[], undefined)).toMatch(message);
  });

  test('counts bytes, not characters, and bounds the question', () => {
    expect(checkBounds([source('a', 10)], 'é'.repeat(1025))).toMatch(/question is over the 2 KiB/);
    expect(checkBounds([{ id: 'a', title: 'a', text: 'é'.repeat(8 * 1024 + 1) }], undefined)).toMatch(
      /16 KiB/,
    );
    expect(checkBounds([source('a', 16 * 1024), source('b', 16 * 1024)], 'q'.repeat(2048))).toBeNull();
  });
});
