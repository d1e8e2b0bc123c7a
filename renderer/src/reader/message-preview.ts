// The first words of a collapsed message's line, as Gmail shows them: the body's own text, without the quote of
// the message it answers (`>` lines and the "On …, … wrote:" line before them), on one line. Mail text, shown
// by React as text. Pure; tested in message-preview.test.ts.
import { isAttribution, isQuoteLine } from '../mail/quote-fold.ts';

export function messagePreview(text: string, maxLength = 160): string {
  const lines = text.split(/\r?\n/);
  const own = lines.filter((line, index) => {
    if (isQuoteLine(line)) return false;
    return !isAttribution(lines, index);
  });
  const flat = own.join(' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= maxLength) return flat;
  // Cut at a word's end when one is near, never inside a surrogate pair.
  const cut = flat.slice(0, maxLength);
  const space = cut.lastIndexOf(' ');
  const kept = space > maxLength * 0.6 ? cut.slice(0, space) : Array.from(cut).slice(0, -1).join('');
  return `${kept}…`;
}
