import { describe, expect, test } from 'vitest';
import type { Chunk } from '../../documents/documents.ts';
import { chooseSources, rankMessages } from './ask-sources.ts';
import { groundedBounds } from './bounds.ts';

const message = (id: string, text: string) => ({ id, title: id, text });
const chunk = (doc: number, seq: number, size = 100): Chunk => ({
  id: `d${doc}c${seq}`,
  documentId: doc,
  seq,
  location: `page ${seq}`,
  text: 'x'.repeat(size),
  name: `doc${doc}.pdf`,
  title: `doc${doc}.pdf, page ${seq}`,
});
const bytes = (sources: { text: string }[]) => sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0);

describe('chooseSources', () => {
  test('takes everything when the thread and documents fit, messages first in thread order', () => {
    const chosen = chooseSources(
      [message('m1', 'hello'), message('m2', 'budget')],
      [[chunk(1, 2)], [chunk(2, 1)]],
      'budget?',
    );
    expect(chosen.sources.map((s) => s.id)).toEqual(['m1', 'm2', 'd1c2', 'd2c1']);
    expect(chosen.sources[2]).toMatchObject({ location: 'page 2', title: 'doc1.pdf, page 2' });
    expect(chosen.leftOut).toEqual([]);
  });

  test('over the bounds, keeps half for the documents and leaves out whole messages, least related first', () => {
    const big = 'w '.repeat(3000);
    const messages = Array.from({ length: 8 }, (_, i) =>
      message(`m${i + 1}`, i === 2 ? `the budget ${big}` : `other ${big}`),
    );
    const docs = [Array.from({ length: 8 }, (_, i) => chunk(1, i + 1, 3000))];
    const chosen = chooseSources(messages, docs, 'What is the budget?');
    expect(chosen.sources.length).toBeLessThanOrEqual(groundedBounds.maxSources);
    expect(bytes(chosen.sources)).toBeLessThanOrEqual(groundedBounds.allSourcesBytes);
    expect(chosen.sources.filter((s) => s.id.startsWith('d')).length).toBeGreaterThanOrEqual(4);
    const mail = chosen.sources.filter((s) => s.id.startsWith('m')).map((s) => s.id);
    expect(mail).toContain('m3');
    // Nothing is cut: every source holds its whole text.
    for (const id of mail)
      expect(chosen.sources.find((s) => s.id === id)?.text).toBe(messages.find((m) => m.id === id)?.text);
    expect(chosen.leftOut.length + mail.length).toBe(8);
  });

  test('the documents take what the messages leave', () => {
    const docs = [Array.from({ length: 8 }, (_, i) => chunk(1, i + 1))];
    const chosen = chooseSources([message('m1', 'short')], docs, 'anything');
    expect(chosen.sources.map((s) => s.id)).toEqual([
      'm1',
      'd1c1',
      'd1c2',
      'd1c3',
      'd1c4',
      'd1c5',
      'd1c6',
      'd1c7',
    ]);
  });
});

describe('rankMessages', () => {
  test('puts the messages sharing most words with the question first, the later one on a tie', () => {
    const ranked = rankMessages(
      [message('a', 'lunch'), message('b', 'budget review'), message('c', 'lunch again')],
      'budget review lunch',
    );
    expect(ranked).toEqual([1, 2, 0]);
  });
});
