// The preview of an attachment, over the reader (issue 29 §1): an image from its bytes (a blob: URL, never the
// sender's URL), a PDF's pages one at a time (pdfjs), a text as text (HTML and SVG too, never as markup); anything
// else is named with its type and size. Save is there for all of them. Esc closes.
import { useEffect, useRef, useState } from 'react';
import type { Attachment } from '../../../shared/contract/index.ts';
import { Modal } from '../app/Modal.tsx';
import { formatBytes } from '../format/format-size.ts';
import { displayText } from '../mail/display-text.ts';
import type { PdfPreview } from './pdf-preview.ts';
import { previewKind } from './preview-kind.ts';
import { readAttachment } from './read-attachment.ts';

type Shown =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'too-large'; total: number }
  | { state: 'none' }
  | { state: 'image'; url: string }
  | { state: 'pdf'; pdf: PdfPreview }
  | { state: 'text'; text: string; cut: boolean; markup: boolean };

export function AttachmentPreview({
  message,
  index,
  attachment,
  onClose,
  onSave,
}: {
  message: number;
  index: number;
  attachment: Attachment;
  onClose(): void;
  onSave(): void;
}) {
  const [shown, setShown] = useState<Shown>({ state: 'loading' });
  const name = displayText(attachment.name) || 'Unnamed attachment';
  const { name: rawName, contentType } = attachment;

  useEffect(() => {
    const kind = previewKind(rawName, contentType);
    const stop = new AbortController();
    let release = () => {};
    void (async () => {
      if (kind.kind === 'none') return setShown({ state: 'none' });
      const read = await readAttachment(message, index, kind.maxBytes, kind.kind !== 'text', stop.signal);
      if (read === null || stop.signal.aborted) return;
      if (!read.ok) {
        return setShown(
          'error' in read
            ? { state: 'error', message: read.error }
            : { state: 'too-large', total: read.tooLarge },
        );
      }
      if (kind.kind === 'image') {
        // SECURITY: typed as the raster type previewKind chose (never SVG), so the <img> decodes pixels only.
        const url = URL.createObjectURL(new Blob([read.bytes], { type: kind.type }));
        release = () => URL.revokeObjectURL(url);
        return setShown({ state: 'image', url });
      }
      if (kind.kind === 'text') {
        const text = new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
        return setShown({ state: 'text', text, cut: read.cut, markup: kind.markup });
      }
      try {
        const { openPdf } = await import('./pdf-preview.ts');
        const pdf = await openPdf(read.bytes);
        if (stop.signal.aborted) return pdf.close();
        release = () => pdf.close();
        setShown({ state: 'pdf', pdf });
      } catch {
        setShown({ state: 'error', message: 'This PDF could not be read.' });
      }
    })();
    return () => {
      stop.abort();
      release();
    };
  }, [message, index, rawName, contentType]);

  return (
    <Modal
      label={`Preview of ${name}`}
      testId="attachment-preview"
      onEscape={onClose}
      className="preview-dialog"
    >
      <header className="preview-head">
        <h2 className="preview-name">{name}</h2>
        <span className="muted">
          {displayText(attachment.contentType)} · {formatBytes(attachment.size)}
        </span>
      </header>
      <div className="preview-body" data-testid="attachment-preview-body" data-state={shown.state}>
        {shown.state === 'loading' && <p className="muted">Reading the attachment…</p>}
        {shown.state === 'error' && (
          <p className="warning" role="alert">
            {shown.message}
          </p>
        )}
        {shown.state === 'too-large' && (
          <p>This file is {formatBytes(shown.total)}, more than the preview reads. Save it to open it.</p>
        )}
        {shown.state === 'none' && (
          <p data-testid="attachment-preview-none">
            {name} — {displayText(attachment.contentType) || 'unknown type'}, {formatBytes(attachment.size)}.
            There is no preview for this type; save it to open it.
          </p>
        )}
        {shown.state === 'image' && (
          <img className="preview-image" src={shown.url} alt={name} data-testid="attachment-preview-image" />
        )}
        {shown.state === 'pdf' && <PdfPages pdf={shown.pdf} name={name} />}
        {shown.state === 'text' && (
          <>
            {shown.markup && (
              <p className="muted">Shown as text: Skimmer does not display web pages or SVG from mail.</p>
            )}
            <pre className="preview-text" data-testid="attachment-preview-text">
              {shown.text}
            </pre>
            {shown.cut && <p className="muted">Only the beginning is shown; save the file for the rest.</p>}
          </>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onSave} data-testid="attachment-preview-save">
          Save
        </button>
        <button type="button" className="primary" onClick={onClose} data-testid="attachment-preview-close">
          Close
        </button>
      </div>
    </Modal>
  );
}

function PdfPages({ pdf, name }: { pdf: PdfPreview; name: string }) {
  const [page, setPage] = useState(1);
  const [drawn, setDrawn] = useState(0);
  const [failed, setFailed] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    let current = true;
    setFailed(false);
    const width = Math.min(target.parentElement?.clientWidth ?? 760, 900);
    pdf.draw(page, target, width).then(
      () => current && setDrawn(page),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [pdf, page]);
  return (
    <div className="preview-pdf">
      <nav className="preview-pages" aria-label="Pages">
        <button
          type="button"
          onClick={() => setPage((p) => Math.max(1, p - 1))}
          disabled={page <= 1}
          data-testid="pdf-previous"
        >
          Previous
        </button>
        <span data-testid="pdf-page" aria-live="polite">
          Page {page} of {pdf.pages}
        </span>
        <button
          type="button"
          onClick={() => setPage((p) => Math.min(pdf.pages, p + 1))}
          disabled={page >= pdf.pages}
          data-testid="pdf-next"
        >
          Next
        </button>
      </nav>
      {failed && <p className="warning">Page {page} could not be drawn.</p>}
      <canvas
        ref={canvas}
        className="preview-canvas"
        data-testid="pdf-canvas"
        data-drawn={drawn}
        role="img"
        aria-label={`${name}, page ${page}`}
      />
    </div>
  );
}
