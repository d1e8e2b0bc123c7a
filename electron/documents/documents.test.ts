// Documents imported from files the tests make (issue 7): a PDF keeps its page numbers as locations, a .docx
// its paragraphs, Markdown its lines; chunks have stable ids; the same file twice is one document; a question
// finds the chunks that match it; a file that is not what its name says is a sentence, not a crash.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { makeDocx, makePdf } from '../../test/support/documents.ts';
import { tempDir } from '../../test/support/temp.ts';
import { type Db, openDatabase } from '../db/open.ts';
import { chunkPieces, pickChunks, prepareDocuments } from './documents.ts';

const dir = tempDir();
let db: Db;
beforeAll(async () => {
  db = openDatabase(join(dir, 'skimmer.db'));
  writeFileSync(
    join(dir, 'plan.pdf'),
    await makePdf(['Budget for 2027 is flat.', 'Hiring two engineers in March.', 'Office moves in June.']),
  );
  writeFileSync(
    join(dir, 'notes.docx'),
    await makeDocx(['Kickoff on Monday.', 'The vendor is Acme.', 'Review in April.']),
  );
  writeFileSync(join(dir, 'readme.md'), '# Project\n\nThe goal is faster search.\n');
  writeFileSync(join(dir, 'fake.pdf'), 'this is not a pdf');
});

describe('documents', () => {
  test('a PDF keeps its page numbers as locations', async () => {
    const docs = prepareDocuments(db);
    const pdf = await docs.import(join(dir, 'plan.pdf'));
    expect(pdf).toMatchObject({ name: 'plan.pdf', duplicate: false });
    const chunks = docs.chunks(pdf.id);
    expect(chunks.map((c) => [c.id, c.location, c.text])).toEqual([
      [`d${pdf.id}c1`, 'page 1', 'Budget for 2027 is flat.'],
      [`d${pdf.id}c2`, 'page 2', 'Hiring two engineers in March.'],
      [`d${pdf.id}c3`, 'page 3', 'Office moves in June.'],
    ]);
    expect(chunks[1]?.title).toBe('plan.pdf, page 2');
    expect(docs.relevant(pdf.id, 'When is hiring?', 5).map((c) => c.location)).toEqual(['page 2']);
  });

  test('a .docx keeps its paragraphs, Markdown its lines', async () => {
    const docs = prepareDocuments(db);
    const docx = await docs.import(join(dir, 'notes.docx'));
    expect(docs.chunks(docx.id)[0]).toMatchObject({
      location: 'paragraphs 1–3',
      text: expect.stringContaining('The vendor is Acme.'),
    });
    const md = await docs.import(join(dir, 'readme.md'));
    expect(docs.chunks(md.id)[0]?.location).toMatch(/^lines 1–/);
  });

  test('the same file twice is one document', async () => {
    const docs = prepareDocuments(db);
    const again = await docs.import(join(dir, 'plan.pdf'));
    expect(again.duplicate).toBe(true);
    expect(db.prepare("SELECT count(*) FROM documents WHERE name = 'plan.pdf'").pluck().get()).toBe(1);
  });

  test('a question finds the chunks that match it', async () => {
    const docs = prepareDocuments(db);
    const docx = await docs.import(join(dir, 'notes.docx'));
    expect(docs.relevant(docx.id, 'Who is the vendor?', 5).map((c) => c.id)).toEqual([`d${docx.id}c1`]);
    expect(docs.relevant(docx.id, 'quantum physics', 5)).toEqual([]);
  });

  test('a file that is not what its name says is a sentence', async () => {
    await expect(prepareDocuments(db).import(join(dir, 'fake.pdf'))).rejects.toThrow(
      'fake.pdf could not be read as a PDF file.',
    );
    await expect(prepareDocuments(db).import(join(dir, 'x.exe'))).rejects.toThrow(
      /not a \.txt, \.md, \.pdf or \.docx/,
    );
  });

  test('chunks stay within 4 KiB and a long page is cut where it has line ends', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i} of a long page.`).join('\n');
    const chunks = chunkPieces([
      { location: 'page 1', text: long },
      { location: 'page 2', text: 'short' },
    ]);
    for (const c of chunks) expect(Buffer.byteLength(c.text)).toBeLessThanOrEqual(4096);
    expect(chunks.at(-1)?.text).toContain('short');
    expect(chunks.map((c) => c.text).join('\n')).toContain('Line 399 of a long page.');
  });

  test('picking takes every document in turn, within the bounds', () => {
    const c = (doc: number, seq: number, size = 10) => ({
      id: `d${doc}c${seq}`,
      documentId: doc,
      seq,
      location: 'page 1',
      name: 'n',
      title: 't',
      text: 'x'.repeat(size),
    });
    const picked = pickChunks([[c(1, 1), c(1, 2), c(1, 3)], [c(2, 1)]], 3, 1000);
    expect(picked.map((p) => p.id)).toEqual(['d1c1', 'd2c1', 'd1c2']);
    expect(pickChunks([[c(1, 1, 600), c(1, 2, 600)]], 8, 1000).map((p) => p.id)).toEqual(['d1c1']);
  });
});
