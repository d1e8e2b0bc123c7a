// Imported documents (issue 7). Owns `documents` and `document_chunks`. A document is cut into chunks of at
// most 4 KiB along its own pieces (pages, paragraphs, lines), each with a stable id `d<doc>c<seq>` and its
// location ("page 3", "lines 12–40"), so a citation leads back to the page or the lines.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { Db } from '../db/open.ts';
import { FileRefusal, type Places, readUserFile, userPlaces } from '../files/safe-open.ts';
import { DocumentError } from './document-error.ts';
import { type DocumentKind, extractPieces, kindOf, maxDocumentBytes, type Piece } from './extract.ts';

export type Chunk = {
  id: string;
  documentId: number;
  seq: number;
  location: string;
  text: string;
  name: string;
  title: string;
};
export type ImportedDocument = { id: number; name: string; chunks: number; duplicate: boolean };

const chunkBytes = 4 * 1024;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

// "page 3" and "page 3" stay "page 3"; "line 12" … "line 40" become "lines 12–40".
function span(first: string, last: string): string {
  if (first === last) return first;
  const [unit, a] = first.split(' ');
  const b = last.split(' ')[1];
  return `${unit}s ${a}–${b}`;
}

/**
 * Pieces in order, joined into chunks within 4 KiB; a piece longer than that is cut at line ends. A PDF page is
 * never joined with another, so a citation names the page it came from.
 */
export function chunkPieces(pieces: readonly Piece[]): { location: string; text: string }[] {
  const out: { location: string; text: string }[] = [];
  let text = '';
  let first = '';
  let last = '';
  const flush = () => {
    if (text.trim()) out.push({ location: span(first, last), text: text.trim() });
    text = '';
  };
  for (const p of pieces) {
    let rest = p.text;
    while (bytes(rest) > chunkBytes) {
      flush();
      let end = Math.min(rest.length, chunkBytes);
      while (bytes(rest.slice(0, end)) > chunkBytes) end -= 1;
      const nl = rest.lastIndexOf('\n', end);
      if (nl > end / 2) end = nl + 1;
      out.push({ location: p.location, text: rest.slice(0, end).trim() });
      rest = rest.slice(end);
    }
    if (text && (p.location.startsWith('page') || bytes(text) + bytes(rest) + 1 > chunkBytes)) flush();
    if (!text) first = p.location;
    last = p.location;
    text = text ? `${text}\n${rest}` : rest;
  }
  flush();
  return out.filter((c) => c.text.length > 0);
}

const chunkId = (documentId: number, seq: number) => `d${documentId}c${seq}`;

/**
 * `places` are where an imported file may be (files/safe-open.ts); the app passes its own, which leave out its data
 * folder. Reading, searching and listing need none.
 */
export function prepareDocuments(db: Db, places: Places = userPlaces(), now: () => number = Date.now) {
  const byHash = db.prepare<[string], { id: number; name: string }>(
    'SELECT id, name FROM documents WHERE content_hash = ?',
  );
  const insertDoc = db.prepare<[string, string, DocumentKind, number, string, number]>(
    'INSERT INTO documents (name, path, kind, size, content_hash, imported_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertChunk = db.prepare<[number, number, string, string]>(
    'INSERT INTO document_chunks (document_id, seq, location, text) VALUES (?, ?, ?, ?)',
  );
  const countChunks = db
    .prepare<[number]>('SELECT count(*) FROM document_chunks WHERE document_id = ?')
    .pluck();
  const chunksOf = db.prepare<
    [number],
    { document_id: number; seq: number; location: string; text: string; name: string }
  >(
    `SELECT c.document_id, c.seq, c.location, c.text, d.name FROM document_chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.document_id = ? ORDER BY c.seq`,
  );
  const search = db.prepare<
    [number, string, number],
    { document_id: number; seq: number; location: string; text: string; name: string }
  >(
    `SELECT c.document_id, c.seq, c.location, c.text, d.name
     FROM document_chunks_fts f JOIN document_chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id
     WHERE c.document_id = ? AND document_chunks_fts MATCH ? ORDER BY rank LIMIT ?`,
  );
  const searchAll = db.prepare<
    [string, number],
    { document_id: number; seq: number; location: string; text: string; name: string; snippet: string }
  >(
    `SELECT c.document_id, c.seq, c.location, c.text, d.name,
       snippet(document_chunks_fts, 0, '', '', '…', 24) AS snippet
     FROM document_chunks_fts f JOIN document_chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id
     WHERE document_chunks_fts MATCH ? ORDER BY rank LIMIT ?`,
  );
  const listAll = db.prepare<
    [],
    { id: number; name: string; kind: DocumentKind; size: number; imported_at: number; chunks: number }
  >(
    `SELECT d.id, d.name, d.kind, d.size, d.imported_at, (SELECT count(*) FROM document_chunks c WHERE c.document_id = d.id) AS chunks
     FROM documents d ORDER BY d.imported_at DESC, d.id DESC`,
  );
  const byId = db.prepare<[number], { id: number; name: string; kind: DocumentKind }>(
    'SELECT id, name, kind FROM documents WHERE id = ?',
  );
  const toChunk = (r: {
    document_id: number;
    seq: number;
    location: string;
    text: string;
    name: string;
  }): Chunk => ({
    id: chunkId(r.document_id, r.seq),
    documentId: r.document_id,
    seq: r.seq,
    location: r.location,
    text: r.text,
    name: r.name,
    title: `${r.name}, ${r.location}`,
  });

  return {
    /** Imports one file; the same content imported again is the same document. Throws a sentence on bad input. */
    async import(path: string): Promise<ImportedDocument> {
      const kind = kindOf(path);
      if (!kind)
        throw new DocumentError('unreadable', `${basename(path)} is not a .txt, .md, .pdf or .docx file.`);
      let data: Buffer;
      try {
        // The size is checked on the open file before a byte is read, and the read is asynchronous: a 1.5 GB file
        // is refused at once, and the bridge's thread never waits for the disk.
        data = await readUserFile(path, places, maxDocumentBytes);
      } catch (e) {
        if (e instanceof FileRefusal)
          throw new DocumentError('unreadable', `${basename(path)}: ${e.message}`);
        throw e;
      }
      const hash = createHash('sha256').update(data).digest('hex');
      const known = byHash.get(hash);
      if (known)
        return {
          id: known.id,
          name: known.name,
          chunks: countChunks.get(known.id) as number,
          duplicate: true,
        };
      let pieces: Piece[];
      try {
        pieces = await extractPieces(kind, data);
      } catch {
        throw new DocumentError(
          'unreadable',
          `${basename(path)} could not be read as a ${kind.toUpperCase()} file.`,
        );
      }
      const chunks = chunkPieces(pieces);
      const id = db.transaction(() => {
        const docId = Number(
          insertDoc.run(basename(path), path, kind, data.length, hash, now()).lastInsertRowid,
        );
        chunks.forEach((c, seq) => {
          insertChunk.run(docId, seq + 1, c.location, c.text);
        });
        return docId;
      })();
      return { id, name: basename(path), chunks: chunks.length, duplicate: false };
    },

    chunks: (documentId: number): Chunk[] => chunksOf.all(documentId).map(toChunk),

    document: (documentId: number) => byId.get(documentId) ?? null,

    list: () =>
      listAll.all().map((d) => ({
        id: d.id,
        name: d.name,
        kind: d.kind,
        size: d.size,
        importedAt: d.imported_at,
        chunks: d.chunks,
      })),

    /**
     * Full-text search over every document's chunks, best first, with a snippet. The query is FTS5 syntax as
     * typed; one FTS5 cannot parse is searched again as a phrase, as the mail search does.
     */
    search(query: string, limit: number): (Chunk & { snippet: string })[] {
      const run = (q: string) => searchAll.all(q, limit).map((r) => ({ ...toChunk(r), snippet: r.snippet }));
      try {
        return run(query);
      } catch {
        return run(`"${query.replace(/"/g, '""')}"`);
      }
    },

    /** The chunks of a document that match the words of a question, best first. */
    relevant(documentId: number, question: string, limit: number): Chunk[] {
      const words = question.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
      if (words.length === 0) return [];
      const query = [...new Set(words)].map((w) => `"${w}"`).join(' OR ');
      return search.all(documentId, query, limit).map(toChunk);
    },
  };
}

/**
 * The sources for a question over documents (issue 7: "picks the most relevant chunks within the bounds"):
 * each document's best-matching chunks, taken in turns so every document is heard, until 8 sources or 32 KiB;
 * a document with no matching chunk offers its first ones.
 */
export function pickChunks(perDocument: readonly Chunk[][], maxSources: number, maxBytes: number): Chunk[] {
  const picked: Chunk[] = [];
  let size = 0;
  for (let round = 0; picked.length < maxSources; round++) {
    let any = false;
    for (const list of perDocument) {
      const c = list[round];
      if (!c) continue;
      any = true;
      const n = Buffer.byteLength(c.text, 'utf8');
      if (picked.length < maxSources && size + n <= maxBytes) {
        picked.push(c);
        size += n;
      }
    }
    if (!any) break;
  }
  return picked;
}
