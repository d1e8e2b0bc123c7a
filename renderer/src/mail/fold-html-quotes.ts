// Folds the quoted mail of an HTML reply behind "…" inside the mail frame, after the sanitized mail is written
// in (mail-frame-document.ts). The frame runs no script (sandbox without allow-scripts), so the fold is a
// native <details><summary>…</summary>…</details>, which opens without any. Which elements fold is decided by
// quote-fold.ts: the outermost quote containers (Gmail's div.gmail_quote, blockquote type=cite, a bare
// blockquote, Yahoo's div.yahoo_quoted), each with the attribution right before it, and nothing at all when the
// message would keep no text of its own. Elements are created by the app in the frame's document and the mail's
// nodes are moved, never re-parsed. DOM-dependent: tested in Chromium by test/e2e/long-thread.test.ts.
import { type ElementShape, isAttributionElement, isQuoteContainer, keepsOwnText } from './quote-fold.ts';

const shape = (element: Element): ElementShape => ({
  tag: element.localName,
  classes: [...element.classList],
  type: element.getAttribute('type'),
});

/** Returns how many quotes were folded; those holding a search mark start open. */
export function foldHtmlQuotes(body: HTMLElement): number {
  const doc = body.ownerDocument;
  const candidates = [...body.querySelectorAll('blockquote, div')].filter((element) =>
    isQuoteContainer(shape(element)),
  );
  // The outermost only: a quote inside a quote folds with it.
  const outer = candidates.filter(
    (element) => !candidates.some((other) => other !== element && other.contains(element)),
  );
  const folds = outer.map((quote) => {
    const before = quote.previousElementSibling;
    const attribution =
      before &&
      !isQuoteContainer(shape(before)) &&
      isAttributionElement(shape(before), before.textContent ?? '')
        ? before
        : null;
    return { quote, attribution };
  });
  const foldedTexts = folds.flatMap(({ quote, attribution }) => [
    quote.textContent ?? '',
    attribution?.textContent ?? '',
  ]);
  if (folds.length === 0 || !keepsOwnText(body.textContent ?? '', foldedTexts)) return 0;
  for (const { quote, attribution } of folds) {
    const details = doc.createElement('details');
    details.className = 'skimmer-quote-fold';
    const summary = doc.createElement('summary');
    summary.textContent = '…';
    summary.title = 'Show quoted text';
    summary.setAttribute('aria-label', 'Show quoted text');
    summary.setAttribute('data-testid', 'quote-fold-toggle');
    details.append(summary);
    const first = attribution ?? quote;
    first.before(details);
    if (attribution) details.append(attribution);
    details.append(quote);
    if (details.querySelector('mark.search-term')) details.open = true;
  }
  return folds.length;
}
