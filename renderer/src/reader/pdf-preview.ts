// A PDF attachment's pages in the reader (issue 29 §1), drawn by pdfjs-dist (the library the documents already
// read PDFs with, electron/documents/extract.ts) from bytes in memory, in its own worker. Loaded only when a PDF
// is previewed: pdfjs is half a megabyte the first screen does not need.
import type { PDFDocumentProxy } from 'pdfjs-dist';
// The worker's own file, served beside the app's (CSP worker-src 'self', electron/csp.ts).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export type PdfPreview = {
  pages: number;
  draw(page: number, canvas: HTMLCanvasElement, width: number): Promise<void>;
  close(): void;
};

/** Opens `bytes` as a PDF; pdfjs's error when it is not one. */
export async function openPdf(bytes: Uint8Array): Promise<PdfPreview> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  // SECURITY: a PDF is the sender's: no XFA forms, no fetching of anything (fonts, maps, ranges) by the worker,
  // errors stop it rather than being worked around. Its links are not drawn (no annotation layer), so nothing in
  // it can be clicked.
  const task = pdfjs.getDocument({
    data: bytes,
    enableXfa: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  const pdf: PDFDocumentProxy = await task.promise;
  return {
    pages: pdf.numPages,
    async draw(n, canvas, width) {
      const page = await pdf.getPage(n);
      const unscaled = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const scale = (width / unscaled.width) * ratio;
      const viewport = page.getViewport({ scale });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, viewport }).promise;
      page.cleanup();
    },
    close() {
      void task.destroy();
    },
  };
}
