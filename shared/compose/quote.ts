// The original's text in a reply (DESIGN §11, "Reply, reply all, forward"): `On DATE, NAME wrote:` and then
// each of its lines quoted as plain text, the way RFC 3676 §4.5 quotes: `> ` before a line, `>` alone before
// a line that is already quoted (`> a` becomes `>> a`) or blank. Long lines are kept whole, not wrapped: the
// message goes out as quoted-printable, which carries any length, and a wrapped line would break a link.
import type { ComposeOptions, Original } from './composition.ts';

/**
 * How much of the original a reply or forward carries, in characters. A draft holds 100,000 (draft:save),
 * and the user's words and signature need room beside it; a longer original is cut at a line, and says so.
 */
export const maxQuotedChars = 60_000;
export const shortenedNote = '[… the rest of the message is not included]';

/** The original's plain text: its text, or its HTML rendered by `htmlText` when it has HTML only. */
export function originalText(original: Original, options: ComposeOptions = {}): string {
  if (original.text.trim() !== '') return original.text;
  if (original.html && options.htmlText) return options.htmlText(original.html);
  return '';
}

/**
 * Text as lines: CRLF and lone CR read as line ends, trailing spaces and the blank lines around the text taken
 * off, at most `maxQuotedChars` (whole lines, then the `shortenedNote`).
 */
export function textLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''));
  const first = lines.findIndex((l) => l !== '');
  if (first === -1) return [];
  const kept = lines.slice(first, lines.findLastIndex((l) => l !== '') + 1);
  const out: string[] = [];
  let size = 0;
  for (const line of kept) {
    if (size + line.length > maxQuotedChars) {
      if (out.length === 0) out.push(cut(line, maxQuotedChars));
      out.push(shortenedNote);
      return out;
    }
    out.push(line);
    size += line.length + 1;
  }
  return out;
}

// The first `n` characters, one fewer when the cut would split a surrogate pair.
function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** Every line quoted once more: `> ` before text, `>` before a line already quoted or blank. */
export function quoteLines(lines: readonly string[]): string {
  return lines.map((l) => (l === '' ? '>' : l.startsWith('>') ? `>${l}` : `> ${l}`)).join('\n');
}

/** The line above the quote: `On Tue, 3 Mar 2026 at 14:05, Priya Raman wrote:` (`Priya Raman wrote:` undated). */
export function attribution(original: Original, options: ComposeOptions = {}): string {
  const who = original.from.name.trim() || original.from.address.trim() || 'Someone';
  return original.date > 0 ? `On ${dateText(original.date, options)}, ${who} wrote:` : `${who} wrote:`;
}

/**
 * A date as `Tue, 3 Mar 2026 at 14:05` in the given time zone. Written from Intl's parts, not its formatted
 * string, whose punctuation changes between ICU versions (the renderer's and Node's differ).
 */
export function dateText(epochMs: number, options: Pick<ComposeOptions, 'timeZone'> = {}): string {
  // en-US: its short months are three letters in every ICU (en-GB's September became `Sept`).
  const parts = new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  }).formatToParts(epochMs);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')}, ${part('day')} ${part('month')} ${part('year')} at ${part('hour')}:${part('minute')}`;
}
