// Text that draws nothing on screen but is read by programs and models: what the assistant's copy of the mail
// is cleaned of (ai/safety/untrusted.ts) and what the mail's warnings report (mail/warnings/). Pure; below
// both, so neither imports the other for it (DESIGN §1, the layers).
import { legitimateJoiner } from '../../shared/reveal-hidden.ts';

// Invisible characters. Beyond the zero-width and bidi sets of §8 we also take the soft hyphen and the
// Arabic letter mark (both in fixtures/hostile/bidi-zero-width.eml), the invisible math operators
// U+2061–U+2064, and Unicode tag characters U+E0000–U+E007F ("ASCII smuggling": text in tag characters
// is invisible on screen but read by models).
/** A character class (for a `u` RegExp) of the characters that draw nothing. */
export const INVISIBLE =
  '\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF\\u180E\\u00AD\\u061C\\u{E0000}-\\u{E007F}';
export const invisibleRun = new RegExp(`[${INVISIBLE}]`, 'gu');

// SECURITY: variation selectors carry data too ("emoji smuggling": each byte of a hidden text becomes one of the
// 256 selectors, VS1–16 U+FE00–FE0F and VS17–256 U+E0100–E01EF, strung after a visible character). Their only
// use is one at a time: an emoji's text or colour form (U+FE0E/FE0F), a CJK ideograph's variant (VS17+). So a
// run of two or more is hidden text, taken out and reported; a lone VS17+ is taken out (the model reads the
// ideograph without its glyph variant) but not reported; a lone VS1–16 stays, as emoji need it.
const selectorRun = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}/gu;
const supplementSelector = /[\u{E0100}-\u{E01EF}]/gu;

// ZWJ joins emoji (👩‍💻) and ZWNJ/ZWJ shape Persian, Arabic and Indic words (legitimateJoiner): removing them
// there is harmless, but reporting them as hidden text would flag every such mail.

/** Whether text hides characters, not counting a leading byte-order mark or joiners that shape words. */
export function hidesCharacters(text: string): boolean {
  // A byte-order mark at the very start is an encoding artefact, not hidden text.
  const meaningful = text.replace(/^\uFEFF/, '').replace(legitimateJoiner, '');
  return (
    meaningful.replace(invisibleRun, '') !== meaningful || meaningful.replace(selectorRun, '') !== meaningful
  );
}

export function stripHiddenText(text: string): { text: string; removed: boolean } {
  const stripped = text.replace(selectorRun, '').replace(supplementSelector, '').replace(invisibleRun, '');
  return { text: stripped, removed: stripped !== text && hidesCharacters(text) };
}
