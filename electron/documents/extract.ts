// The text of a document, with where each piece came from (issue 7): a PDF page by page (pdfjs-dist), a
// .docx paragraph by paragraph (mammoth), plain text and Markdown line by line. Only text leaves here.
import { extname } from 'node:path';

export type DocumentKind = 'txt' | 'md' | 'pdf' | 'docx';
/** A run of the document's text and where it stands ("page 3", "line 40"). */
export type Piece = { location: string; text: string };

export const maxDocumentBytes = 50 * 1024 * 1024;

export function kindOf(path: string): DocumentKind | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.txt') return 'txt';
  if (ext === '.md' || ext === '.markdown') return 'md';
  if (ext === '.pdf') return 'pdf';
  if (ext === '.docx') return 'docx';
  return null;
}

export async function extractPieces(kind: DocumentKind, bytes: Buffer): Promise<Piece[]> {
  if (kind === 'pdf') return pdfPages(bytes);
  if (kind === 'docx') {
    // Loaded when a .docx is read, not at every start (mammoth and its zip reader are a hundred files).
    const { default: mammoth } = await import('mammoth');
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    return value
      .split(/\n+/)
      .flatMap((p, i) => (p.trim() ? [{ location: `paragraph ${i + 1}`, text: p }] : []));
  }
  return bytes
    .toString('utf8')
    .split(/\r?\n/)
    .map((line, i) => ({ location: `line ${i + 1}`, text: line }));
}

async function pdfPages(bytes: Buffer): Promise<Piece[]> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // SECURITY: a PDF is untrusted input: only the text layer is read; no system fonts, no font faces, no XFA.
  // (pdfjs 6 no longer compiles font programs with eval, the path of CVE-2024-4367.)
  const task = getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    enableXfa: false,
    disableFontFace: true,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    const pdf = await task.promise;
    const pieces: Piece[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : ''))
        .join('')
        .trim();
      if (text) pieces.push({ location: `page ${n}`, text });
      page.cleanup();
    }
    return pieces;
  } finally {
    await task.destroy();
  }
}
