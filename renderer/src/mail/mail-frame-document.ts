// The document inside the mail frame. The frame's srcdoc is only a shell carrying the frame's own CSP; the
// parent then writes the sanitized mail into it. That needs the frame to be same-origin with the app, hence
// sandbox="allow-same-origin" and nothing else (see MailFrame.tsx for why that is safe without allow-scripts).
//
// Why not put the mail in srcdoc directly: about:srcdoc inherits the app's CSP (HTML §"policy containers"), so
// the app's style-src 'self' would refuse every inline style in the mail. Styles are applied here through CSSOM
// instead (element.style, adopted constructed sheets), which CSP does not govern; the CSS itself was already
// sanitized (sanitize-css.ts). Images still load under both policies: the app's and the shell's.
import type { SearchTerm } from '../search/search-terms.ts';
import { foldHtmlQuotes } from './fold-html-quotes.ts';
import { markTextNodes } from './mark-text-nodes.ts';
import type { SanitizedMail } from './sanitize-html.ts';

// SECURITY: the frame's own policy. Nothing may load but data: images, and remote images only once the user has
// asked for them for this message. No script, style, font, media, form or base URL from the mail, ever. img-src
// also admits CSS images, which CSP cannot tell apart from <img>: the sanitizer leaves CSS no remote URL at all
// (resource-url.ts, styleReference), so what loads is the <img> elements, each with referrerpolicy="no-referrer".
export function mailFrameShell(loadRemote: boolean): string {
  // blob: only once images are loaded: the message's own cid: images, from the URLs the page made of their bytes
  // (a blob: URL names only what this origin made).
  const images = loadRemote ? 'data: blob: https: http:' : 'data:';
  const policy = `default-src 'none'; img-src ${images}; style-src 'none'; font-src 'none'; media-src 'none'; form-action 'none'; base-uri 'none'`;
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${policy}"><meta name="referrer" content="no-referrer"><meta charset="utf-8"></head><body></body></html>`;
}

// Mail is written for a light page; it keeps one whatever the app theme is.
const baseCss = `
html { color-scheme: light; }
html, body { margin: 0; }
body { padding: 12px 16px; background: #fff; color: #1b1b1b; font: 14px/1.5 system-ui, sans-serif; overflow-wrap: anywhere; }
img { max-width: 100%; height: auto; }
img[data-mail-blocked] { outline: 1px dashed #b0b0b0; min-width: 24px; min-height: 24px; }
a[data-mail-link] { color: #0b57d0; text-decoration: underline; cursor: pointer; }
a[data-mail-link]:focus-visible { outline: 2px solid #0b57d0; outline-offset: 2px; }
pre { white-space: pre-wrap; }
details.skimmer-quote-fold { display: block; margin: 4px 0; }
details.skimmer-quote-fold > summary { display: inline-block; list-style: none; padding: 0 8px; line-height: 16px; border: 1px solid #c4c8cf; border-radius: 4px; background: #eef0f3; color: #1b1b1b; letter-spacing: 1px; cursor: pointer; }
details.skimmer-quote-fold > summary::-webkit-details-marker { display: none; }
details.skimmer-quote-fold > summary:focus-visible { outline: 2px solid #0b57d0; outline-offset: 1px; }
mark.search-term { background: #fde68a; color: #1b1b1b; border-radius: 2px; }
`;

export type MailFrameHandlers = {
  onLink(index: number): void;
  onKeyDown(event: KeyboardEvent): void;
  onHeight(pixels: number): void;
};

// Fills the loaded shell with the mail and wires link clicks, keys and height. Returns the cleanup.
export function mountMail(
  frame: HTMLIFrameElement,
  mail: SanitizedMail,
  handlers: MailFrameHandlers,
  terms: readonly SearchTerm[] = [],
): () => void {
  const doc = frame.contentDocument;
  const view = frame.contentWindow as (Window & typeof globalThis) | null;
  if (!doc || !view || !doc.body) return () => {};
  // Constructed sheets must come from the frame's own realm to be adopted by its document.
  doc.adoptedStyleSheets = [baseCss, mail.css].map((text) => {
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  doc.body.innerHTML = mail.html;
  doc.body.style.cssText = mail.bodyCss;
  for (const element of doc.body.querySelectorAll<HTMLElement>('[data-mail-style]')) {
    element.style.cssText = element.getAttribute('data-mail-style') ?? '';
    element.removeAttribute('data-mail-style');
  }
  // Marks first, so a fold holding one starts open.
  markTextNodes(doc.body, terms);
  foldHtmlQuotes(doc.body);

  const linkIndex = (target: EventTarget | null): number | null => {
    const element = target as Element | null;
    const link = typeof element?.closest === 'function' ? element.closest('a[data-mail-link]') : null;
    const index = Number(link?.getAttribute('data-mail-link'));
    return link && Number.isInteger(index) ? index : null;
  };
  // SECURITY: the parent listens in the frame; links carry no href, so there is nothing to follow even if this
  // listener were missing. Every activation goes to the app's confirmation.
  const onClick = (event: MouseEvent) => {
    const index = linkIndex(event.target);
    if (index === null) return;
    event.preventDefault();
    handlers.onLink(index);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = event.key === 'Enter' ? linkIndex(event.target) : null;
    if (index === null) return handlers.onKeyDown(event);
    event.preventDefault();
    handlers.onLink(index);
  };
  doc.addEventListener('click', onClick);
  doc.addEventListener('auxclick', onClick);
  doc.addEventListener('keydown', onKeyDown);

  const measure = () => {
    const root = doc.documentElement;
    const scrollbar = root.scrollWidth > root.clientWidth ? 18 : 0;
    handlers.onHeight(Math.ceil(doc.body.scrollHeight) + scrollbar);
  };
  const resize = new ResizeObserver(measure);
  resize.observe(doc.body);
  measure();
  return () => {
    resize.disconnect();
    doc.removeEventListener('click', onClick);
    doc.removeEventListener('auxclick', onClick);
    doc.removeEventListener('keydown', onKeyDown);
  };
}
