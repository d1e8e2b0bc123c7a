// Characters that do not show on screen, made visible (issue 27). Text that Skimmer is asked to send or save — a
// model's or an outside agent's `send_mail` or `create_draft` — goes out exactly as written, so whatever in it
// draws nothing (Unicode tag characters, zero-width and other format characters, controls, variation
// selectors) is shown on the approval card as a marked placeholder naming it, never dropped: a prompt-injected
// model once carried a code and an IBAN past the card in tag characters. Pure; used by the main process for
// the cards' previews and the MCP elicitation text, and by the renderer for the card's arguments.

/** Each placeholder opens and closes with these, so a person can tell Skimmer's marks from the text. */
const revealOpen = '⟦';
const revealClose = '⟧';

// Joiners that shape emoji (👩‍💻) and Persian, Arabic and Indic words, and the emoji presentation selector after a
// pictograph or a keycap base: they draw as part of the visible text, so revealing them would mark every such
// message. The one list of these, for untrusted.ts too.
export const legitimateJoiner =
  /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})|(?<=[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Sinhala}\p{M}])[\u200C\u200D]/gu;
const presentationSelector = /(?<=[\p{Extended_Pictographic}#*0-9])[\uFE0E\uFE0F]/gu;

// What draws nothing: format characters (tags, zero-width, direction controls, the soft hyphen, the BOM…),
// controls other than the tab (it draws as a space) and the line feed, variation selectors, the combining
// grapheme joiner, Hangul fillers, and the line and paragraph separators. A one-line field (a subject, a name)
// reveals its line feeds too.
const format = /\p{Cf}/u;
const control = /\p{Cc}/u;
const drawsNothing = (ch: string, code: number, oneLine: boolean): boolean =>
  format.test(ch) ||
  (control.test(ch) && code !== 0x09 && (oneLine || code !== 0x0a)) ||
  (code >= 0xfe00 && code <= 0xfe0f) ||
  (code >= 0xe0100 && code <= 0xe01ef) ||
  [0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2028, 0x2029].includes(code);

const names = new Map<number, string>([
  [0x000a, 'line break'],
  [0x000d, 'carriage return'],
  [0x0085, 'next line'],
  [0x00ad, 'soft hyphen'],
  [0x034f, 'combining grapheme joiner'],
  [0x061c, 'Arabic letter mark'],
  [0x115f, 'Hangul filler'],
  [0x1160, 'Hangul filler'],
  [0x180e, 'Mongolian vowel separator'],
  [0x200b, 'zero-width space'],
  [0x200c, 'zero-width non-joiner'],
  [0x200d, 'zero-width joiner'],
  [0x200e, 'left-to-right mark'],
  [0x200f, 'right-to-left mark'],
  [0x2028, 'line separator'],
  [0x2029, 'paragraph separator'],
  [0x202a, 'left-to-right embedding'],
  [0x202b, 'right-to-left embedding'],
  [0x202c, 'pop directional formatting'],
  [0x202d, 'left-to-right override'],
  [0x202e, 'right-to-left override'],
  [0x2060, 'word joiner'],
  [0x2061, 'function application'],
  [0x2062, 'invisible times'],
  [0x2063, 'invisible separator'],
  [0x2064, 'invisible plus'],
  [0x2066, 'left-to-right isolate'],
  [0x2067, 'right-to-left isolate'],
  [0x2068, 'first strong isolate'],
  [0x2069, 'pop directional isolate'],
  [0x3164, 'Hangul filler'],
  [0xfeff, 'zero-width no-break space'],
  [0xffa0, 'Hangul filler'],
  [0xe0001, 'language tag'],
  [0xe007f, 'cancel tag'],
]);

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

function nameOf(code: number): string {
  const known = names.get(code);
  if (known) return known;
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef)) return 'variation selector';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'control character';
  return 'invisible character';
}

// Tag characters U+E0020–U+E007E mirror printable ASCII: a run of them is hidden text, shown as the text it spells.
const isAsciiTag = (code: number) => code >= 0xe0020 && code <= 0xe007e;

export type Revealed = {
  /** The text with each hidden character, or run of them, replaced by a visible ⟦placeholder⟧. */
  text: string;
  /** How many hidden characters were found. */
  hidden: number;
};

/**
 * The text with everything that draws nothing made visible. `oneLine` is for a field that is shown on one line
 * (a subject, a title, a name): its line feeds become placeholders too, so it cannot draw a line of
 * its own on the card.
 */
export function revealHidden(text: string, options: { oneLine?: boolean } = {}): Revealed {
  const keep = new Set<number>();
  for (const pattern of [legitimateJoiner, presentationSelector]) {
    for (const match of text.matchAll(pattern)) keep.add(match.index);
  }
  const isHidden = (ch: string, index: number) =>
    !keep.has(index) && drawsNothing(ch, ch.codePointAt(0) ?? 0, options.oneLine === true);

  let out = '';
  let hidden = 0;
  let index = 0;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; ) {
    const ch = chars[i] as string;
    if (!isHidden(ch, index)) {
      out += ch;
      index += ch.length;
      i += 1;
      continue;
    }
    const code = ch.codePointAt(0) ?? 0;
    // A run: tag text read as the text it spells, anything else as one character named with how many times.
    let end = i + 1;
    let endIndex = index + ch.length;
    const sameRun = (next: string) =>
      isAsciiTag(code) ? isAsciiTag(next.codePointAt(0) ?? 0) : next.codePointAt(0) === code;
    while (end < chars.length && sameRun(chars[end] as string) && isHidden(chars[end] as string, endIndex)) {
      endIndex += (chars[end] as string).length;
      end += 1;
    }
    const run = chars.slice(i, end);
    hidden += run.length;
    if (isAsciiTag(code)) {
      const spelled = run.map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) - 0xe0000)).join('');
      out += `${revealOpen}hidden text in tag characters: “${spelled}”${revealClose}`;
    } else {
      const times = run.length > 1 ? ` ×${run.length}` : '';
      out += `${revealOpen}${nameOf(code)} ${hex(code)}${times}${revealClose}`;
    }
    index = endIndex;
    i = end;
  }
  return { text: out, hidden };
}

/** The card's warning for text that holds hidden characters; null when none does. */
export function hiddenWarning(count: number): string | null {
  if (count === 0) return null;
  const what = count === 1 ? '1 character that does not show' : `${count} characters that do not show`;
  return `⚠ This holds ${what}, marked ${revealOpen}…${revealClose} below. They go out as they are: deny it unless you expect them.`;
}
