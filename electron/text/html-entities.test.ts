import { describe, expect, test } from 'vitest';
import { decodeEntities } from './html-entities.ts';

describe('decodeEntities', () => {
  test('reads numeric references, decimal and hex, and the named ones mail uses', () => {
    expect(decodeEntities('&#80;ay &#x41;&#X42; &amp; &LT;b&gt; &quot;q&quot; &apos;a&apos;&nbsp;!')).toBe(
      'Pay AB & <b> "q" \'a\' !',
    );
  });
  test('a reference out of range is U+FFFD; an unknown name stays as written', () => {
    expect(decodeEntities('&#0; &#x110000; &hellip; &bogus')).toBe('\uFFFD \uFFFD &hellip; &bogus');
  });
  test('the semicolon may be left out, as browsers read it', () => {
    expect(decodeEntities('&#65&amp')).toBe('A&');
  });
});
