import { cidOf } from '../../../shared/content-id.ts';

// What a resource reference in mail (img src, srcset candidate, background, CSS url()) may load. Pure, so the
// rules are tested in Node (resource-url.test.ts); the DOM-side sanitizer only applies the verdicts.

export type ResourceVerdict =
  | { kind: 'inline'; url: string } // data:image/…: loads nothing from anywhere
  | { kind: 'remote'; url: string } // absolute http(s): an <img> only, once the user loads images for the message
  | { kind: 'part'; id: string } // cid: a part of the message itself, shown as its bytes once images are loaded
  | { kind: 'unusable' }; // relative, file:, javascript:, …: never loaded

// The URL parser drops ASCII tab and newline anywhere and C0 controls and spaces at both ends (WHATWG URL,
// "basic URL parser"), so `jav\tascript:` or ` https://x` must be judged as the browser would read them.
export function cleanUrl(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters the URL parser strips.
  return raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

export function classifyResource(raw: string): ResourceVerdict {
  const url = cleanUrl(raw);
  // An SVG loaded as an image cannot run script or fetch anything (HTML §"image" documents), so any image type is fine.
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(url)) return { kind: 'inline', url };
  const id = cidOf(url);
  if (id !== null) return id === '' ? { kind: 'unusable' } : { kind: 'part', id };
  // Protocol-relative references would resolve against the app's own address; old mail means https.
  const absolute = url.startsWith('//') ? `https:${url}` : url;
  if (!/^https?:/i.test(absolute)) return { kind: 'unusable' };
  try {
    return { kind: 'remote', url: new URL(absolute).href };
  } catch {
    return { kind: 'unusable' };
  }
}

// Where a reference stands decides whether it may ever load (DESIGN §12, "Load images"):
//   - in an <img> (src, srcset candidate) a remote reference loads once the user has loaded images for the
//     message, and until then is removed and counted (the count is what the "Load images" notice offers);
//   - in CSS (url(), and the `background` attribute, a CSS background in all but name) it never loads.
// SECURITY: only <img> can be told to send no Referer (referrerpolicy="no-referrer", set by sanitize-html.ts) and to
// fetch without CORS (no crossorigin, so no Origin). CSS has no such switch: Chromium sent the app's address
// (Referer http://127.0.0.1:PORT/ in browser mode) for style attributes the app writes through CSSOM, whatever the
// frame's own no-referrer policy says, and mask, clip-path and shape-outside fetch in CORS mode, which always sends
// an Origin. Rather than rely on each property's fetch to behave, CSS loads nothing remote at all.
export type ImageVerdict = { url: string | null; blocked: boolean };

/** The blob: URL of each image part of the message the page has read, by lower-case Content-ID. */
export type InlineParts = ReadonlyMap<string, string>;

// A `cid:` image (issue 29 §1) waits for "Load images" as a remote one does (an HTML mail's own images are often
// its tracking pixels too), then shows the part's bytes through the blob: URL the page made of them
// (HtmlBody.tsx), never anything the mail names: a cid: with no such image part shows nothing.
export function imageReference(
  raw: string,
  loadRemote: boolean,
  parts: InlineParts = new Map(),
): ImageVerdict {
  const resource = classifyResource(raw);
  if (resource.kind === 'inline') return { url: resource.url, blocked: false };
  if (resource.kind === 'unusable') return { url: null, blocked: false };
  if (resource.kind === 'part') {
    return loadRemote
      ? { url: parts.get(resource.id) ?? null, blocked: false }
      : { url: null, blocked: true };
  }
  return loadRemote ? { url: resource.url, blocked: false } : { url: null, blocked: true };
}

// The URL CSS may keep, or null: data:image only.
export function styleReference(raw: string): string | null {
  const resource = classifyResource(raw);
  return resource.kind === 'inline' ? resource.url : null;
}

export type SrcsetCandidate = { url: string; descriptor: string };

// HTML §"parse a srcset attribute", simplified: a URL runs to the next whitespace (so data: URLs keep their
// commas), trailing commas end a candidate, and descriptors run to the next comma outside parentheses.
export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let at = 0;
  while (at < value.length) {
    while (at < value.length && /[\s,]/.test(value[at] ?? '')) at++;
    if (at >= value.length) break;
    const urlStart = at;
    while (at < value.length && !/\s/.test(value[at] ?? '')) at++;
    let url = value.slice(urlStart, at);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      candidates.push({ url, descriptor: '' });
      continue;
    }
    const descriptorStart = at;
    let depth = 0;
    while (at < value.length && !(value[at] === ',' && depth === 0)) {
      if (value[at] === '(') depth++;
      else if (value[at] === ')') depth = Math.max(0, depth - 1);
      at++;
    }
    candidates.push({ url, descriptor: value.slice(descriptorStart, at).trim() });
  }
  return candidates;
}
