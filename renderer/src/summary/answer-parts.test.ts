import { describe, expect, test } from 'vitest';
import type { GroundedView } from '../../../shared/contract/index.ts';
import { answerParts, citationLabel } from './answer-parts.ts';

const view = (answer: string, citations: GroundedView['citations']): GroundedView => ({
  answer,
  cited: citations.length > 0,
  citations,
  cached: false,
  note: null,
});
const m12 = { id: 'm12', title: 'Launch — Ann', messageId: 12, documentId: null, location: null };
const m15 = { id: 'm15', title: 'Re: Launch — Bo', messageId: 15, documentId: null, location: null };

describe('answerParts', () => {
  test('turns each cited mark into a chip labelled by the message’s place in the thread', () => {
    expect(answerParts(view('Ship on the 5th [m12]. Agreed [m15].', [m12, m15]), [12, 15])).toEqual([
      { kind: 'text', text: 'Ship on the 5th ' },
      { kind: 'cite', citation: m12, label: 'message 1' },
      { kind: 'text', text: '. Agreed ' },
      { kind: 'cite', citation: m15, label: 'message 2' },
      { kind: 'text', text: '.' },
    ]);
  });

  test('keeps a mark that is not a citation as plain text', () => {
    expect(answerParts(view('See [x] and [m12]', [m12]), [12])).toEqual([
      { kind: 'text', text: 'See [x] and ' },
      { kind: 'cite', citation: m12, label: 'message 1' },
    ]);
  });

  test('an uncited draft is all text', () => {
    expect(answerParts(view('No sources here.', []), [12])).toEqual([
      { kind: 'text', text: 'No sources here.' },
    ]);
  });
});

describe('citationLabel', () => {
  test('falls back to the shortened title when the source is not a message of the thread', () => {
    const other = { id: 'm99', title: 'A rather long subject of another thread', messageId: 99 };
    expect(citationLabel({ ...other, documentId: null, location: null }, [12])).toBe(
      'A rather long subject of an…',
    );
  });

  test('names a document part by its document and always keeps the page', () => {
    const part = { id: 'd1c3', messageId: null, documentId: 1, location: 'page 3' };
    expect(citationLabel({ ...part, title: 'handbook.pdf, page 3' }, [12])).toBe('handbook.pdf, page 3');
    expect(citationLabel({ ...part, title: 'A rather long document title.pdf, page 3' }, [12])).toBe(
      'A rather long docum…, page 3',
    );
  });
});
