// One table of the letters that look like Latin ones, for every check that folds them (issue 30 §4): Unicode's
// confusables (UTS #39, confusables.txt) as the `unhomoglyph` package carries them, which the sender warnings'
// skeletons use whole (mail/warnings/lookalike.ts). This is the part of it that maps one UTF-16 unit, not
// ASCII itself, to one Latin letter (lower case), so a text folded with it keeps its length and every position:
// what the injection hints need to point at the line a phrase is on (injection.ts). Pure.
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

const table = confusables as Record<string, string>;

const latinLetter = (value: string | undefined) =>
  value !== undefined && /^[A-Za-z]$/.test(value) ? value.toLowerCase() : undefined;

// A lower-case letter is found by its own entry or its capital's (confusables.txt maps Cyrillic в to a small
// capital, В to B); one with a mark by its base letter (ё is е and a diaeresis).
function latinFor(ch: string): string | undefined {
  const base = ch.normalize('NFD')[0] ?? ch;
  for (const c of base === ch ? [ch] : [ch, base]) {
    const found = latinLetter(table[c]) ?? latinLetter(table[c.toUpperCase()]);
    if (found) return found;
  }
  return undefined;
}

function build(): Map<string, string> {
  const folds = new Map<string, string>();
  const add = (ch: string) => {
    if (ch.length !== 1 || ch.charCodeAt(0) < 0x80 || folds.has(ch)) return;
    const latin = latinFor(ch);
    if (latin) folds.set(ch, latin);
  };
  for (const key of Object.keys(table)) {
    add(key);
    add(key.toLowerCase());
  }
  // Letters with a mark whose base is in the table (ё, ї) have no entry of their own.
  for (let code = 0x80; code < 0x2000; code++) add(String.fromCharCode(code));
  return folds;
}

const folds = build();
const lookalike = new RegExp(`[${[...folds.keys()].join('').replace(/[\]\\^-]/g, '\\$&')}]`, 'g');

/** The text with each non-ASCII letter that looks like a Latin one replaced by it: the same length. */
export function foldLatinLookalikes(text: string): string {
  return text.replace(lookalike, (ch) => folds.get(ch) ?? ch);
}
