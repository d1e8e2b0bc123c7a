// The main search's results are one list for the keyboard (issue 7: documents searchable beside mail): the
// mail hits first, then the document hits, so j/k and Enter reach both and the mail hits keep their places.
// Pure; tested in search-hits.test.ts.

export type PickedHit<M, D> = { kind: 'mail'; hit: M } | { kind: 'document'; hit: D };

// The hit at a cursor position across both groups, or null past their end.
export function hitAt<M, D>(
  mail: readonly M[],
  documents: readonly D[],
  index: number,
): PickedHit<M, D> | null {
  if (index < 0) return null;
  if (index < mail.length) return { kind: 'mail', hit: mail[index] as M };
  const document = documents[index - mail.length];
  return document === undefined ? null : { kind: 'document', hit: document };
}

// The cursor after a j/k step: it stays within the hits of both groups (0 when there are none).
export function stepCursor(cursor: number, delta: number, count: number): number {
  return Math.min(Math.max(cursor + delta, 0), Math.max(count - 1, 0));
}
