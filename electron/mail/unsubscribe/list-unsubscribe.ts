// RFC 2369 `List-Unsubscribe` and RFC 8058 `List-Unsubscribe-Post`, read once from the raw header block at import
// and at sync (parse.ts), so the reader's Unsubscribe button needs nothing of the message but what is stored
// (unsubscribe-store.ts). Pure.
//
// SECURITY: the header comes from untrusted mail. Only https, http and mailto URIs are kept, each parsed by
// WHATWG URL rules (what is stored is the parsed form: punycode host, no credentials), bounded in number and size.

export type UnsubscribeLinks = {
  /** The first https URI, parsed; null when there is none. */
  https: string | null;
  /** The first http URI, parsed. */
  http: string | null;
  /** The first mailto URI, parsed. */
  mailto: string | null;
  /** `List-Unsubscribe-Post: List-Unsubscribe=One-Click` was there (RFC 8058): the https URI takes a POST. */
  oneClick: boolean;
};

// Bounds: a hostile header may be huge or list thousands of URIs.
const maxHeaderBytes = 256 * 1024;
const maxFieldChars = 8 * 1024;
const maxUris = 16;
const maxUriChars = 2048;

/** The `<URI>`s of a List-Unsubscribe value in order: comments `( … )` skipped, whitespace inside brackets dropped. */
export function listUris(value: string): string[] {
  const uris: string[] = [];
  let depth = 0;
  let current: string | null = null;
  for (let i = 0; i < value.length && uris.length < maxUris; i++) {
    const c = value[i] as string;
    if (current !== null) {
      if (c === '>') {
        // RFC 2369 §2: whitespace in a URI (a folded line) is to be ignored.
        const uri = current.replace(/\s+/g, '');
        if (uri !== '' && uri.length <= maxUriChars) uris.push(uri);
        current = null;
      } else current += c;
    } else if (depth > 0) {
      if (c === '\\') i++;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    } else if (c === '(') depth = 1;
    else if (c === '<') current = '';
    // Anything else between the brackets (commas, garbage, a bare URL) is not a URI of the list.
  }
  return uris;
}

/** A URI kept for unsubscribing, in its parsed form; null for anything else. */
function usableUri(raw: string): { scheme: 'https' | 'http' | 'mailto'; url: string } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http' && scheme !== 'mailto') return null;
  if (scheme === 'mailto') return url.pathname.includes('@') ? { scheme, url: url.href } : null;
  // SECURITY: `https://bank.example@evil.example` reads like the bank: a URI with credentials is not kept.
  if (url.username || url.password || !url.hostname) return null;
  return { scheme, url: url.href };
}

/** What a message's two header values say; null when it offers no usable way to unsubscribe. */
export function unsubscribeLinks(
  listUnsubscribe: string,
  listUnsubscribePost: string | null,
): UnsubscribeLinks | null {
  const found: UnsubscribeLinks = { https: null, http: null, mailto: null, oneClick: false };
  for (const raw of listUris(listUnsubscribe)) {
    const uri = usableUri(raw);
    if (uri && found[uri.scheme] === null) found[uri.scheme] = uri.url;
  }
  if (found.https === null && found.http === null && found.mailto === null) return null;
  // RFC 8058 §3.1: the POST header holds exactly this key/value pair, and the POST goes to an HTTPS URI only.
  found.oneClick = found.https !== null && listUnsubscribePost?.trim() === 'List-Unsubscribe=One-Click';
  return found;
}

/** The two fields of a raw message's header block (the first of each), read for unsubscribeLinks. */
export function readUnsubscribeHeaders(raw: Buffer): UnsubscribeLinks | null {
  const head = raw.subarray(0, maxHeaderBytes);
  const ends = [head.indexOf('\r\n\r\n'), head.indexOf('\n\n')].filter((i) => i >= 0);
  const block = head.subarray(0, ends.length > 0 ? Math.min(...ends) : head.length).toString('utf8');
  let list: string | null = null;
  let post: string | null = null;
  for (const field of block.split(/\r?\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    if (name !== 'list-unsubscribe' && name !== 'list-unsubscribe-post') continue;
    const value = field
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim()
      .slice(0, maxFieldChars);
    if (name === 'list-unsubscribe') list ??= value;
    else post ??= value;
  }
  return list === null ? null : unsubscribeLinks(list, post);
}
