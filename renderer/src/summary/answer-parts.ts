// A grounded answer's text split for display (DESIGN §10): every inline `[id]` that names one of the answer's
// citations becomes a chip; anything else in square brackets stays plain text, so a stray mark never looks
// like a checked source. Pure; tested in answer-parts.test.ts.
import type { GroundedView } from '../../../shared/contract/index.ts';

export type Citation = GroundedView['citations'][number];
export type AnswerPart = { kind: 'text'; text: string } | { kind: 'cite'; citation: Citation; label: string };

// The same shape as the ids Skimmer gives its sources (`m12`, `d3c2`): short, no spaces or brackets.
const mark = /\[([^[\]\s]{1,40})\]/g;
const maxTitle = 28;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// What a chip says: the cited message's place in the thread ("message 2"); a document's name, shortened, and
// always the page ("handbook.pdf, page 2"); else the title, shortened.
export function citationLabel(citation: Citation, messageIds: readonly number[]): string {
  const at = citation.messageId === null ? -1 : messageIds.indexOf(citation.messageId);
  if (at !== -1) return `message ${at + 1}`;
  const title = citation.title.trim() || citation.id;
  const { location } = citation;
  if (citation.documentId !== null && location) {
    const name = title.endsWith(`, ${location}`) ? title.slice(0, -(location.length + 2)) : title;
    return `${shorten(name, Math.max(8, maxTitle - location.length - 2))}, ${location}`;
  }
  return shorten(title, maxTitle);
}

export function answerParts(view: GroundedView, messageIds: readonly number[]): AnswerPart[] {
  const byId = new Map(view.citations.map((c) => [c.id, c]));
  const parts: AnswerPart[] = [];
  let text = '';
  let from = 0;
  for (const m of view.answer.matchAll(mark)) {
    const citation = byId.get(m[1] as string);
    if (!citation) continue;
    text += view.answer.slice(from, m.index);
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
    parts.push({ kind: 'cite', citation, label: citationLabel(citation, messageIds) });
    from = m.index + m[0].length;
  }
  text += view.answer.slice(from);
  if (text !== '') parts.push({ kind: 'text', text });
  return parts;
}
