// What the page is shown of a grounded answer (shared/contract GroundedView): each citation as the message, or
// the document and page, it names; and the sources a message becomes for the model (long-thread.ts).
import type { GroundedView, MessageView } from '../../../shared/contract/index.ts';
import type { Chunk } from '../../documents/documents.ts';
import { mailText } from '../tools/mail-tools.ts';
import type { MessageSource } from './long-thread.ts';

export type Citation = GroundedView['citations'][number];

export const messageSource = (m: MessageView): MessageSource => ({
  id: `m${m.id}`,
  title: `${m.subject} — ${m.from.name || m.from.address}`,
  text: mailText(m).text,
});
export const messageCitation = (m: MessageView): Citation => ({
  id: `m${m.id}`,
  title: messageSource(m).title,
  messageId: m.id,
  documentId: null,
  location: null,
});
export const chunkCitation = (c: Chunk): Citation => ({
  id: c.id,
  title: c.title,
  messageId: null,
  documentId: c.documentId,
  location: c.location,
});

// A piece of a long message (`m12-2`) is cited as its message, inline too, so every chip opens a message.
const wholeMessage = (id: string) => id.replace(/^(m\d+)-\d+$/, '$1');

/** The view of a checked answer: each citation as the message or document part it names. */
export function viewOf(
  answer: { answer: string; cited: boolean; citations: readonly string[] },
  known: ReadonlyMap<string, Citation>,
  note: string | null,
): GroundedView {
  const ids = [...new Set(answer.citations.map(wholeMessage))];
  return {
    answer: answer.answer.replace(/\[(m\d+-\d+)\]/g, (_m, id: string) => `[${wholeMessage(id)}]`),
    cited: answer.cited,
    citations: ids.flatMap((id) => {
      const c = known.get(id);
      return c ? [c] : [];
    }),
    cached: false,
    note,
  };
}

// A view cached before citations named documents, or before notes, reads as one that names none.
export function cachedView(json: string): GroundedView {
  const v = JSON.parse(json) as GroundedView;
  return {
    ...v,
    citations: v.citations.map((c) => ({ ...c, documentId: c.documentId ?? null })),
    note: v.note ?? null,
    cached: true,
  };
}
