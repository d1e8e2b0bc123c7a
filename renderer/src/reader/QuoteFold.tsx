import { type ReactNode, useState } from 'react';

// A quote folded behind "…" (mail/quote-fold.ts found it), shown again by a click, Enter or Space. It starts
// open when a search term is inside it, so a search never lands on a hidden match.
export function QuoteFold({ children, startOpen }: { children: ReactNode; startOpen: boolean }) {
  const [open, setOpen] = useState(startOpen);
  return (
    <span className="quote-fold" data-testid="quote-fold" data-open={open}>
      <button
        type="button"
        className="quote-fold-toggle"
        data-testid="quote-fold-toggle"
        aria-expanded={open}
        aria-label={open ? 'Hide quoted text' : 'Show quoted text'}
        title={open ? 'Hide quoted text' : 'Show quoted text'}
        onClick={() => setOpen(!open)}
      >
        …
      </button>
      {open && (
        <span className="quote-fold-text" data-testid="quote-fold-text">
          {children}
        </span>
      )}
    </span>
  );
}
