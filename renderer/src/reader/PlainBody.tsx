import { useMemo } from 'react';
import { splitPlainTextLinks } from '../mail/plain-text-links.ts';
import { foldPlainText } from '../mail/quote-fold.ts';
import { Marked } from '../search/Marked.tsx';
import { markRanges } from '../search/mark-ranges.ts';
import type { SearchTerm } from '../search/search-terms.ts';
import { useSearchTerms } from '../search/use-search-terms.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { QuoteFold } from './QuoteFold.tsx';

// Plain text is rendered as React text (escaped). Web and mailto addresses open through the confirmation; the
// quote of the mail it answers folds behind "…" (QuoteFold); the terms of a search are marked (Marked).
export function PlainBody({ text }: { text: string }) {
  const terms = useSearchTerms();
  const segments = useMemo(() => foldPlainText(text), [text]);

  if (text.trim() === '') return <p className="plain-body empty">(This message has no text.)</p>;
  return (
    <div className="plain-body">
      {segments.map((segment) =>
        segment.kind === 'text' ? (
          <PlainText key={segment.start} text={segment.text} terms={terms} />
        ) : (
          <QuoteFold key={segment.start} startOpen={markRanges(segment.text, terms).length > 0}>
            <PlainText text={segment.text} terms={terms} />
          </QuoteFold>
        ),
      )}
    </div>
  );
}

function PlainText({ text, terms }: { text: string; terms: readonly SearchTerm[] }) {
  const askToOpenLink = useMailStore((state) => state.askToOpenLink);
  const pieces = useMemo(() => splitPlainTextLinks(text), [text]);
  return pieces.map((piece) =>
    piece.kind === 'text' ? (
      <span key={piece.start}>
        <Marked text={piece.text} terms={terms} />
      </span>
    ) : (
      <button
        key={piece.start}
        type="button"
        className="text-link"
        onClick={() => askToOpenLink(piece.text, piece.text)}
      >
        {piece.text}
      </button>
    ),
  );
}
