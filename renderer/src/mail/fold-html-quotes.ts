// Folds the quoted mail of an HTML reply behind "…" inside the mail frame, after the sanitized mail is written
// in (mail-frame-document.ts). The frame runs no script (sandbox without allow-scripts), so the fold is a
// native <details><summary>…</summary>…</details>, which opens without any. Which elements fold is decided by
// quote-fold.ts: the outermost quote containers (Gmail's div.gmail_quote, blockquote type=cite, a bare
// blockquote, Yahoo's div.yahoo_quoted), each with the attribution right before it, and nothing at all when the
// message would keep no text of its own. Outlook's quote is a tail (quote-fold.ts isTailQuoteStart): the
// header block and every sibling after it, with the rule (<hr>) just before it. Elements are created by the app in the frame's document and the mail's
// nodes are moved, never re-parsed. DOM-dependent: tested in Chromium by test/e2e/long-thread.test.ts.
import {
  type ElementShape,
  isAttributionElement,
  isQuoteContainer,
  isTailQuoteStart,
  keepsOwnText,
} from './quote-fold.ts';

const shape = (element: Element): ElementShape => ({
  tag: element.localName,
  classes: [...element.classList],
  type: element.getAttribute('type'),
  id: element.getAttribute('id'),
});

type Fold = { nodes: Element[] };

// Outlook's tail: the first tail start not inside a folded quote, widened to the outermost element holding
// only its text (a <p> inside a <div>), then it, the <hr> before it and all siblings after it.
function outlookTail(body: HTMLElement, inside: (element: Element) => boolean): Fold | null {
  const start = [...body.querySelectorAll('div, p, span')].find(
    (element) => !inside(element) && isTailQuoteStart(shape(element), element.textContent ?? ''),
  );
  if (!start) return null;
  let head: Element = start;
  while (
    head.parentElement &&
    head.parentElement !== body &&
    (head.parentElement.textContent ?? '').trim() === (head.textContent ?? '').trim()
  ) {
    head = head.parentElement;
  }
  const nodes: Element[] = [];
  const before = head.previousElementSibling;
  if (before?.localName === 'hr') nodes.push(before);
  for (let node: Element | null = head; node; node = node.nextElementSibling) nodes.push(node);
  return { nodes };
}

function foldInto(doc: Document, nodes: Element[]): void {
  const details = doc.createElement('details');
  details.className = 'skimmer-quote-fold';
  const summary = doc.createElement('summary');
  summary.textContent = '…';
  summary.title = 'Show quoted text';
  summary.setAttribute('aria-label', 'Show quoted text');
  summary.setAttribute('data-testid', 'quote-fold-toggle');
  details.append(summary);
  nodes[0]?.before(details);
  details.append(...nodes);
  if (details.querySelector('mark.search-term')) details.open = true;
}

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
  const tail = outlookTail(body, (element) => outer.some((quote) => quote.contains(element)));
  // A quote inside the tail folds with the tail.
  const separate = folds.filter(({ quote }) => !tail?.nodes.some((node) => node.contains(quote)));
  const all: Fold[] = [
    ...separate.map(({ quote, attribution }) => ({ nodes: attribution ? [attribution, quote] : [quote] })),
    ...(tail ? [tail] : []),
  ];
  const foldedTexts = all.flatMap(({ nodes }) => nodes.map((node) => node.textContent ?? ''));
  if (all.length === 0 || !keepsOwnText(body.textContent ?? '', foldedTexts)) return 0;
  for (const { nodes } of all) foldInto(doc, nodes);
  return all.length;
}
