import { describe, expect, test } from 'vitest';
import type { Chunk } from './documents.ts';
import { pageWindow } from './read.ts';

const chunks: Chunk[] = Array.from({ length: 10 }, (_, i) => ({
  id: `d1c${i + 1}`,
  documentId: 1,
  seq: i + 1,
  location: `page ${i + 1}`,
  text: 'x'.repeat(1000),
  name: 'big.pdf',
  title: `big.pdf, page ${i + 1}`,
}));

describe('pageWindow', () => {
  test('shows a document that fits whole, without a note', () => {
    const page = pageWindow(chunks, 'd1c4', 100_000);
    expect(page.chunks).toHaveLength(10);
    expect(page.note).toBeNull();
  });

  test('shows the cited chunk and its neighbours when the document is over the bound, and says so', () => {
    const page = pageWindow(chunks, 'd1c6', 3200);
    expect(page.chunks.map((c) => c.id)).toEqual(['d1c5', 'd1c6', 'd1c7']);
    expect(page.note).toBe(
      'The document is long: this shows page 5 to page 7 (parts 5–7 of 10), around the cited part.',
    );
  });

  test('starts at the beginning when no chunk is cited', () => {
    expect(pageWindow(chunks, undefined, 2100).chunks.map((c) => c.id)).toEqual(['d1c1', 'd1c2']);
  });
});
