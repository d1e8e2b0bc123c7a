// Splits plain-text mail into text and web/mailto addresses, so addresses can be offered through the same
// confirmation as links in HTML mail. The text itself is always rendered as React text (escaped). Pure.

// `start` is the piece's offset in the text: stable, so it can serve as a key.
export type TextPiece = { kind: 'text' | 'link'; text: string; start: number };

// Trailing punctuation usually ends the sentence, not the address.
const address = /\b(?:https?:\/\/|mailto:)[^\s<>"]*[^\s<>".,;:!?)\]}'’”»]/gi;

export function splitPlainTextLinks(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(address)) {
    const start = match.index;
    if (start > last) pieces.push({ kind: 'text', text: text.slice(last, start), start: last });
    pieces.push({ kind: 'link', text: match[0], start });
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last), start: last });
  return pieces;
}
