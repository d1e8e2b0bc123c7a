// The page a document citation opens (issue 7, `documents:read`): the document's chunks as text, with the
// cited one among them. A document over 256 KiB of text is shown as the window of chunks around the cited
// one (its page and its neighbours), with a note saying so, so the response stays bounded.
import { DocumentError } from './document-error.ts';
import type { Chunk, prepareDocuments } from './documents.ts';

const maxPageBytes = 256 * 1024;

export type PageChunk = { id: string; location: string; text: string };

const view = (c: Chunk): PageChunk => ({ id: c.id, location: c.location, text: c.text });
// As sent: JSON escapes can make a chunk longer than its text.
const size = (c: Chunk) => Buffer.byteLength(JSON.stringify(view(c)), 'utf8');

/**
 * Pure. The chunks to show: all of them when they fit, else the cited chunk (or the first) and its neighbours, taken
 * one before and one after in turn until the next would pass the bound.
 */
export function pageWindow(
  chunks: readonly Chunk[],
  focusId: string | undefined,
  maxBytes: number = maxPageBytes,
): { chunks: PageChunk[]; note: string | null } {
  const total = chunks.reduce((n, c) => n + size(c), 0);
  if (total <= maxBytes) return { chunks: chunks.map(view), note: null };
  const at = Math.max(
    0,
    chunks.findIndex((c) => c.id === focusId),
  );
  let first = at;
  let last = at;
  let used = size(chunks[at] as Chunk);
  for (let grew = true; grew; ) {
    grew = false;
    const after = chunks[last + 1];
    if (after && used + size(after) <= maxBytes) {
      last += 1;
      used += size(after);
      grew = true;
    }
    const before = chunks[first - 1];
    if (before && used + size(before) <= maxBytes) {
      first -= 1;
      used += size(before);
      grew = true;
    }
  }
  const shown = chunks.slice(first, last + 1);
  const from = shown[0]?.location ?? '';
  const to = shown.at(-1)?.location ?? '';
  return {
    chunks: shown.map(view),
    note: `The document is long: this shows ${from} to ${to} (parts ${first + 1}–${last + 1} of ${chunks.length}), around the cited part.`,
  };
}

/** `documents:read`: the document's page view, or `not_found` for a document or part that is not there. */
export function readDocument(
  documents: ReturnType<typeof prepareDocuments>,
  request: { documentId: number; chunkId?: string | undefined },
) {
  const doc = documents.document(request.documentId);
  if (!doc) throw new DocumentError('not_found', 'That document is not imported.');
  const chunks = documents.chunks(doc.id);
  if (request.chunkId !== undefined && !chunks.some((c) => c.id === request.chunkId)) {
    throw new DocumentError('not_found', 'That part of the document is not there.');
  }
  return { id: doc.id, name: doc.name, kind: doc.kind, ...pageWindow(chunks, request.chunkId) };
}
