import { useEffect, useRef } from 'react';
import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';

// The page a document citation opens (issue 7): the document's text part by part, each with its page or
// lines, scrolled to the cited part and marked. The text is the user's file: React text only, never HTML, and
// without direction controls (DESIGN §12).
export function DocumentPage() {
  const page = useDocumentsStore((state) => state.page);
  const close = useDocumentsStore((state) => state.closePage);
  const list = useRef<HTMLDivElement>(null);
  const view = page?.view ?? null;
  const chunkId = page?.chunkId;

  useEffect(() => {
    if (!view || !chunkId) return;
    list.current?.querySelector(`[data-chunk-id="${chunkId}"]`)?.scrollIntoView({ block: 'center' });
  }, [view, chunkId]);
  if (!page) return null;
  const cited = view?.chunks.find((c) => c.id === page.chunkId);

  return (
    <Modal label="Document" testId="document-page" onEscape={close} className="document-page">
      <div className="dialog-title">
        <h2 className="document-page-title">
          {view ? displayText(view.name) : 'Document'}
          {cited && (
            <span className="muted" data-testid="document-page-location">{` — ${cited.location}`}</span>
          )}
        </h2>
        <button type="button" className="ghost" data-testid="document-page-close" onClick={close}>
          Close
        </button>
      </div>
      {page.error && (
        <p className="warning" role="alert" data-testid="document-page-error">
          {page.error}
        </p>
      )}
      {!view && !page.error && <p className="muted">Loading…</p>}
      {view?.note && (
        <p className="muted" data-testid="document-page-note">
          {view.note}
        </p>
      )}
      {view && (
        <div className="document-page-text" ref={list}>
          {view.chunks.map((c) => (
            <section
              key={c.id}
              className={c.id === page.chunkId ? 'document-part cited' : 'document-part'}
              data-testid="document-part"
              data-chunk-id={c.id}
              aria-current={c.id === page.chunkId ? 'true' : undefined}
            >
              <h3 className="document-part-location">{c.location}</h3>
              <p className="document-part-text">{displayText(c.text)}</p>
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}
