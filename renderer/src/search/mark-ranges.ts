// Where search terms occur in a text, ignoring case and diacritics (`muller` marks Müller, as the search folds
// accents), at word starts: a whole word for a term, any word beginning for `prefix*`, words in order for a
// phrase. Ranges are offsets into the original text, so the caller cuts the text itself and renders the parts
// as text (Marked.tsx, mark-text-nodes.ts). Pure; tested in mark-ranges.test.ts.
import type { SearchTerm } from './search-terms.ts';

export type MarkRange = { start: number; end: number };

// The text folded (lowercase, combining marks dropped) with, for each folded code unit, where it came from.
function fold(text: string): { folded: string; from: number[]; to: number[] } {
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let offset = 0;
  for (const char of text) {
    const part = char
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    for (let i = 0; i < part.length; i++) {
      from.push(offset);
      to.push(offset + char.length);
    }
    folded += part;
    offset += char.length;
  }
  return { folded, from, to };
}

const combining = /\p{M}/u;
const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function termPattern(term: SearchTerm): string {
  const words = fold(term.text).folded.split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (words.length === 0) return '';
  const body = words.join('[^\\p{L}\\p{N}]+');
  return `(?<![\\p{L}\\p{N}])${body}${term.prefix ? '' : '(?![\\p{L}\\p{N}])'}`;
}

export function markRanges(text: string, terms: readonly SearchTerm[]): MarkRange[] {
  const patterns = terms.map(termPattern).filter((p) => p !== '');
  if (patterns.length === 0 || text === '') return [];
  const { folded, from, to } = fold(text);
  // Longest first, so a phrase wins over a word inside it at the same place.
  patterns.sort((a, b) => b.length - a.length);
  const matcher = new RegExp(patterns.join('|'), 'gu');
  const ranges: MarkRange[] = [];
  for (const match of folded.matchAll(matcher)) {
    if (match[0].length === 0) continue;
    const start = from[match.index] as number;
    let end = to[match.index + match[0].length - 1] as number;
    // Combining marks after the last letter (a decomposed é) fold to nothing but belong to it.
    while (end < text.length && combining.test(text[end] as string)) end++;
    const last = ranges[ranges.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else ranges.push({ start, end });
  }
  return ranges;
}
