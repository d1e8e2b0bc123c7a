// The HTML mail policy (DESIGN §12), in one place. Mail HTML arrives unsanitized (MessageView.html); what leaves
// here is inert markup for the sandboxed frame:
//   - DOMPurify (html profile only: no SVG, no MathML) removes scripts, event handlers, and everything listed in
//     `forbiddenTags`: forms and their controls, frames, plugins, media, <base>, <meta>, <link>.
//   - Every resource reference (img src/srcset, background attributes, CSS url()) is judged by resource-url.ts:
//     data:image stays; absolute http(s) stays only in an <img>, and only once the user has loaded images for the
//     message (until then it is removed and counted); in CSS and background attributes it never stays; anything
//     else is removed. Every <img> fetches with referrerpolicy="no-referrer" and without CORS.
//   - Links lose their href: each <a> gets data-mail-link="<index into links>", and the app's own confirmation
//     shows the real URL before anything opens (mail-frame-document.ts intercepts the click).
//   - Style attributes and <style> blocks are sanitized as CSS (sanitize-css.ts) and carried as
//     data-mail-style / `css`, to be applied through CSSOM.
// The frame's own CSP (img-src data: until images are loaded, nothing else) is a second, independent layer.
// DOM-dependent (DOMPurify, CSSStyleSheet): tested in Debian's Chromium by test/e2e/mail-sanitizer.test.ts.
import DOMPurify from 'dompurify';
import { prepareMarkup } from './prepare-markup.ts';
import { type InlineParts, imageReference, parseSrcset, styleReference } from './resource-url.ts';
import { sanitizeDeclarations, sanitizeStylesheet } from './sanitize-css.ts';

type MailLink = { href: string; text: string };

export type SanitizedMail = {
  html: string; // body content; styles only as data-mail-style attributes
  css: string; // the sanitized <style> blocks
  bodyCss: string; // the <body> element's own style, bgcolor, text colour and background
  blockedRemote: number; // remote <img> references removed because images were not loaded
  links: MailLink[]; // indexed by data-mail-link
};

const forbiddenTags = [
  'style', // lifted and sanitized as CSS instead
  'base',
  'meta',
  'link',
  'title',
  'form',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'textarea',
  'datalist',
  'output',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'video',
  'audio',
  'source',
  'track',
  'map',
  'area',
  'noscript',
  'template',
  'slot',
  'dialog',
];

const forbiddenAttributes = [
  'ping',
  'target',
  'tabindex',
  'autofocus',
  'accesskey',
  'contenteditable',
  'draggable',
  'popover',
  'popovertarget',
  'popovertargetaction',
  'action',
  'formaction',
  'srcdoc',
  'lowsrc',
  'dynsrc',
  'poster',
  // SECURITY: crossorigin would make an <img> fetch in CORS mode, which sends an Origin (the app's address).
  'crossorigin',
  'referrerpolicy', // set by us on every <img>, never the mail's
  'usemap',
  'longdesc',
  'xmlns',
];

// Attributes taken off every element before DOMPurify looks at it, and put back (judged) afterwards.
const stashedAttributes = ['href', 'src', 'srcset', 'background', 'style', 'data-mail-style'] as const;
type Stash = Partial<Record<(typeof stashedAttributes)[number], string>>;

type Run = {
  loadRemote: boolean;
  parts: InlineParts;
  stash: WeakMap<Element, Stash>;
  links: { node: Element; href: string }[];
  blocked: number;
};

const purifier = DOMPurify(window);
let run: Run | null = null;

purifier.addHook('beforeSanitizeAttributes', (node) => {
  if (!run || !(node instanceof Element)) return;
  const stash: Stash = {};
  for (const name of stashedAttributes) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    stash[name] = value;
    node.removeAttribute(name);
  }
  run.stash.set(node, stash);
});

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (!run || !(node instanceof Element)) return;
  const stash = run.stash.get(node);
  if (!stash) return;
  const tag = node.localName;
  let blocked = false;
  if (tag === 'a' && stash.href !== undefined) {
    run.links.push({ node, href: stash.href });
    node.setAttribute('data-mail-link', String(run.links.length - 1));
    node.setAttribute('role', 'link');
    node.setAttribute('tabindex', '0');
  }
  if (tag === 'img') blocked = applyImage(node, stash, run.loadRemote, run.parts) || blocked;
  // A background attribute is a CSS background: data:image only (resource-url.ts, styleReference).
  const background = stash.background === undefined ? null : styleReference(stash.background);
  const css = [
    ...(tag === 'body' ? bodyPresentation(node, background) : []),
    stash['data-mail-style'] ?? '',
    stash.style ?? '',
  ]
    .filter((part) => part !== '')
    .join(';');
  if (background && tag !== 'body') node.setAttribute('background', background);
  if (css !== '') {
    const clean = sanitizeDeclarations(css);
    if (clean !== '') node.setAttribute('data-mail-style', clean);
  }
  if (blocked) run.blocked++;
});

// Returns whether a remote reference was blocked.
function applyImage(node: Element, stash: Stash, loadRemote: boolean, parts: InlineParts): boolean {
  // SECURITY: the image request carries no Referer, whatever the frame's or the app's policy would give it; with
  // crossorigin forbidden it is a no-cors request, which carries no Origin either.
  node.setAttribute('referrerpolicy', 'no-referrer');
  let blocked = false;
  if (stash.src !== undefined) {
    const src = imageReference(stash.src, loadRemote, parts);
    if (src.url) node.setAttribute('src', src.url);
    blocked ||= src.blocked;
  }
  if (stash.srcset !== undefined) {
    const candidates = parseSrcset(stash.srcset).map((candidate) => ({
      ...imageReference(candidate.url, loadRemote, parts),
      descriptor: candidate.descriptor,
    }));
    blocked ||= candidates.some((candidate) => candidate.blocked);
    const usable = candidates.filter((candidate) => candidate.url !== null);
    if (usable.length > 0)
      node.setAttribute('srcset', usable.map((c) => `${c.url} ${c.descriptor}`.trim()).join(', '));
  }
  if (blocked && !node.hasAttribute('src')) node.setAttribute('data-mail-blocked', '');
  return blocked;
}

// The frame's <body> is Skimmer's, so the mail's body presentation moves into its style (then sanitized as CSS).
function bodyPresentation(body: Element, backgroundUrl: string | null): string[] {
  const parts: string[] = [];
  const bgcolor = body.getAttribute('bgcolor');
  const text = body.getAttribute('text');
  if (bgcolor) parts.push(`background-color: ${bgcolor}`);
  if (text) parts.push(`color: ${text}`);
  if (backgroundUrl)
    parts.push(`background-image: url("${backgroundUrl.replace(/["\\\n]/g, encodeURIComponent)}")`);
  return parts;
}

export function sanitizeMailHtml(
  html: string,
  options: { loadRemote: boolean; parts?: InlineParts },
): SanitizedMail {
  const lifted = prepareMarkup(html);
  const state: Run = {
    loadRemote: options.loadRemote,
    parts: options.parts ?? new Map(),
    stash: new WeakMap(),
    links: [],
    blocked: 0,
  };
  run = state;
  let body: Node;
  try {
    body = purifier.sanitize(lifted.html, {
      USE_PROFILES: { html: true },
      FORBID_TAGS: forbiddenTags,
      FORBID_ATTR: forbiddenAttributes,
      ALLOW_DATA_ATTR: false,
      SANITIZE_NAMED_PROPS: true,
      RETURN_DOM: true,
    });
  } finally {
    run = null;
  }
  const bodyElement = body instanceof Element ? body : null;
  return {
    html: bodyElement?.innerHTML ?? '',
    css: lifted.css.map(sanitizeStylesheet).join('\n'),
    bodyCss: bodyElement?.getAttribute('data-mail-style') ?? '',
    blockedRemote: state.blocked,
    links: state.links.map(({ node, href }) => ({
      href,
      text: (node.textContent ?? '').trim().slice(0, 300),
    })),
  };
}
