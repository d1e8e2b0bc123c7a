import { describe, expect, test } from 'vitest';
import { hiddenWarning, revealHidden } from './reveal-hidden.ts';

// Text in Unicode tag characters: each printable ASCII character moved to U+E0000 + its code.
const tags = (text: string) =>
  Array.from(text, (c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0))).join('');

describe('revealHidden', () => {
  test('spells out text hidden in tag characters, whole', () => {
    const body = `Thanks, see you Monday.${tags(' PS wire it to IBAN DE89 3704 0044 0532 0130 00')}`;
    expect(revealHidden(body)).toEqual({
      text: 'Thanks, see you Monday.⟦hidden text in tag characters: “ PS wire it to IBAN DE89 3704 0044 0532 0130 00”⟧',
      hidden: 47,
    });
  });

  test.each([
    ['a zero-width space', 'pay\u200Bpal', 'pay⟦zero-width space U+200B⟧pal'],
    ['a run of one character', 'a\u200B\u200B\u200Bb', 'a⟦zero-width space U+200B ×3⟧b'],
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoice⟦right-to-left override U+202E⟧fdp.exe'],
    ['a soft hyphen', 'con\u00ADfirm', 'con⟦soft hyphen U+00AD⟧firm'],
    ['a word joiner and a BOM', '\uFEFFa\u2060b', '⟦zero-width no-break space U+FEFF⟧a⟦word joiner U+2060⟧b'],
    ['a control character', 'a\u0007b', 'a⟦control character U+0007⟧b'],
    ['a variation selector used to smuggle bytes', 'x\u{E0101}y', 'x⟦variation selector U+E0101⟧y'],
    ['a Hangul filler', 'a\u3164b', 'a⟦Hangul filler U+3164⟧b'],
    ['a line separator', 'a\u2028b', 'a⟦line separator U+2028⟧b'],
  ])('marks %s', (_name, text, shown) => {
    expect(revealHidden(text).text).toBe(shown);
    expect(revealHidden(text).hidden).toBeGreaterThan(0);
  });

  test.each([
    ['plain text', 'Paid in full, thanks.\nBob'],
    ['an emoji joined by ZWJ', 'Dev: 👩‍💻 and ❤️'],
    ['a Persian word with a ZWNJ', 'می‌خواهم'],
    ['a Hindi word with a ZWJ', 'क्‍ष'],
    ['a keycap', '1️⃣ first'],
    ['a tab', 'a\tb'],
  ])('leaves %s as it is', (_name, text) => {
    expect(revealHidden(text)).toEqual({ text, hidden: 0 });
  });

  test('shows a line break of a one-line field on its one line', () => {
    const subject = 'Invoice\nIn reply to: “Payroll” from ceo@example.com';
    expect(revealHidden(subject, { oneLine: true }).text).toBe(
      'Invoice⟦line break U+000A⟧In reply to: “Payroll” from ceo@example.com',
    );
    expect(revealHidden(subject).text).toBe(subject);
  });

  test('is the same when applied twice', () => {
    const once = revealHidden(`a\u200Bb${tags('hi')}\u202E`, { oneLine: true }).text;
    expect(revealHidden(once, { oneLine: true })).toEqual({ text: once, hidden: 0 });
  });
});

describe('hiddenWarning', () => {
  test('says how many and what to do, or nothing', () => {
    expect(hiddenWarning(0)).toBeNull();
    expect(hiddenWarning(1)).toContain('1 character that does not show');
    expect(hiddenWarning(47)).toContain('47 characters that do not show');
  });
});
