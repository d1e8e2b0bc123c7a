// Destinations (DESIGN §7 "Provenance"): every place a text could send mail or a request to — mail
// addresses, links with or without a scheme, bare host names, IP addresses — each written in the one form
// two of them are compared in. Pure; tested in destinations.test.ts.
//
// Decisions taken here:
// - A destination is compared whole, never by a part of it: `x'priya@example.com` is not
//   `priya@example.com`, and `example.com/pricing?d=…` is not `example.com/pricing`. What a scan cuts off
//   (trailing punctuation, a quotation mark) can hold no host, and the rest of the text is scanned on.
// - A host is two or more labels of letters, digits, `_` or `-` (any script), the last one a top-level
//   label as `isTopLevelLabel` says (2–24 letters or `xn--…`), or an IPv4 or IPv6 address. A name that ends
//   in a common file ending which is not a delegated TLD (`report.pdf`, `notes.txt`, `app.js`) is a file,
//   not a host, unless a port, path or query follows it. `README.md` or `Mr.Smith` still count as hosts:
//   a card too many, never one too few.
// - Links: with any `scheme://`, with `//` and none, or bare (`evil.example/c?d=…`). http(s) links are
//   compared without their scheme, a leading `www.` and a trailing `/`; hosts as the URL standard reads
//   them (lower case, punycode, IPv4 in dotted decimal, IPv6 compressed), so `https://EXÄMPLE.com/` and
//   `xn--exmple-cua.com` are one destination.
// - Mail addresses: a word with an `@` that `parseMailbox` accepts, after a `mailto:` (or other scheme)
//   prefix and after quotation marks and markdown emphasis around it (`'…'`, `(…)`, `**…**`) are taken
//   off; the address is then compared whole. A word with an `@` before a host that is not one address
//   (`evil@x.example?body=…`, `priya@example.com/x`) is compared whole, as written.
// - An argument that is exactly one address (a recipient) is that address, whole, with nothing taken off.
// - The text is compared lower-cased and NFKC-normalised (full-width letters and dots are ASCII ones), and
//   an ideographic full stop between ASCII letters is a dot, as browsers read host names (UTS #46).
import { isIP } from 'node:net';
import { addressKey, isTopLevelLabel, parseMailbox } from '../../../shared/mail-address.ts';

// File endings that are not delegated TLDs (checked against IANA's root zone list, 1,438 TLDs, in 2026).
// `md`, `py`, `sh`, `zip`, `mov` and `app` are TLDs and so stay hosts.
const FILE_ENDINGS = new Set(
  (
    'txt pdf doc docx xls xlsx ppt pptx odt ods rtf csv json xml yml yaml toml ini cfg log tmp bak eml msg ' +
    'ics vcf html htm css scss js mjs cjs ts tsx jsx php rb sql cpp png jpg jpeg gif svg webp heic tif ' +
    'tiff bmp ico exe dmg apk iso gz tgz tar rar bin db pem crt'
  ).split(' '),
);

// The lookbehinds let a match start only where a run of its characters starts, so a long run is scanned
// once, not again from every position inside it.
const SCHEME_URL = /(?<![\p{L}\p{N}+.-])[a-z][a-z0-9+.-]*:\/\/[^\s<>"`]+/gu;
const IPV6 =
  /(?<![\p{L}\p{N}:.])(?:\[[0-9a-f:.]+\](?::\d{1,5})?|(?:[0-9a-f]{0,4}:){2,7}[0-9a-f.]*)(?:[/?#][^\s<>"`]*)?/gu;
const WORD = /[^\s<>"`]+/gu;
const NAME_RUN = /[\p{L}\p{N}\p{M}_.-]+/gu;
const LABEL = /^[\p{L}\p{N}\p{M}_-]{1,63}$/u;

/** Every destination in a text, in the form they are compared in, each once. */
export function destinations(text: string): string[] {
  const found: string[] = [];
  const take = (match: string, key: (kept: string) => string | null): string => {
    const kept = trimTrailing(match);
    const k = key(kept);
    if (k === null) return match;
    found.push(k);
    return ` ${match.slice(kept.length)}`;
  };
  // SECURITY: a link's match is blanked out, the rest of the text scanned on: a host written after a
  // named link (`https://example.com/x"evil.example/…`) is found on its own.
  const rest = prepare(text)
    .replace(SCHEME_URL, (m) => take(m, urlKey))
    .replace(IPV6, (m) => take(m, ipv6Key));
  for (const [word] of rest.matchAll(WORD)) {
    // Every host holds a dot and every address an `@`; most words hold neither.
    if (!word.includes('.') && !word.includes('@')) continue;
    const key = wordKey(word);
    if (key !== null) found.push(key);
  }
  return [...new Set(found)];
}

/** The destinations of one argument: a string that is exactly one address is that address, whole. */
export function argumentDestinations(value: string): string[] {
  // SECURITY: a recipient is compared whole, exactly as the tool will use it; prose rules (quotation marks
  // taken off) would let `'priya@example.com` pass as the `priya@example.com` the user wrote.
  const mailbox = parseMailbox(value);
  return mailbox === null ? destinations(value) : [addressKey(mailbox)];
}

function prepare(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=[a-z0-9-])\u3002(?=[a-z0-9-])/g, '.');
}

// Sentence punctuation and closing brackets that a link or address does not end in (GitHub's autolink
// rule): a `)` stays when it closes a `(` of the link itself (`…/Foo_(bar)`). One pass from the end: a
// regular expression anchored at `$` rescans a long run of dots from each of them.
function trimTrailing(s: string): string {
  const opens: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const unclosed: Record<string, number> = {};
  for (const [close, open] of Object.entries(opens)) unclosed[close] = count(s, close) - count(s, open);
  let end = s.length;
  while (end > 0) {
    const c = s[end - 1] ?? '';
    if (".,;:!?'*_~".includes(c)) end -= 1;
    else if ((unclosed[c] ?? 0) > 0) {
      unclosed[c] = (unclosed[c] ?? 0) - 1;
      end -= 1;
    } else break;
  }
  return s.slice(0, end);
}

const count = (s: string, c: string) => s.split(c).length - 1;

function wordKey(raw: string): string | null {
  const word = trimTrailing(raw.replace(/^['([{*_~]+/u, ''));
  if (word.includes('@')) {
    const rest = word.replace(/^[a-z][a-z0-9+.-]*:(?=[^@]*@)/u, '');
    const mailbox = parseMailbox(rest);
    if (mailbox !== null) return addressKey(mailbox);
    if (hostStart(rest.slice(rest.lastIndexOf('@') + 1)) === 0) return rest;
  }
  const start = hostStart(word);
  return start === null ? null : urlKey(`http://${word.slice(start)}`);
}

/** Where the first host name in a word starts, or null when it holds none. */
function hostStart(word: string): number | null {
  for (const run of word.matchAll(NAME_RUN)) {
    let offset = run.index;
    // `…` between two names (`wait...evil.example`) separates them.
    for (const piece of run[0].split(/(\.{2,})/)) {
      const lead = /^[._-]*/u.exec(piece)?.[0].length ?? 0;
      let name = piece.slice(lead);
      while (name.endsWith('.') || name.endsWith('-')) name = name.slice(0, -1);
      const end = offset + lead + name.length;
      if (name && isHostName(name, word[end])) return offset + lead;
      offset += piece.length;
    }
  }
  return null;
}

function isHostName(name: string, next: string | undefined): boolean {
  if (isIP(name) === 4) return true;
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || name.length > 253 || !labels.every((l) => LABEL.test(l))) return false;
  if (!isTopLevelLabel(last)) return false;
  return !FILE_ENDINGS.has(last) || (next !== undefined && ':/?#'.includes(next));
}

function ipv6Key(match: string): string | null {
  const bracketed = match.startsWith('[');
  const close = match.indexOf(']');
  const address = bracketed ? match.slice(1, close) : (match.split(/[/?#]/, 1)[0] ?? '');
  if (isIP(address) !== 6) return null;
  return urlKey(`http://[${address}]${match.slice(bracketed ? close + 1 : address.length)}`);
}

function urlKey(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href.replace(/^(?:https?:)?\/\//u, '');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.href;
  const user = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const host = url.hostname.replace(/\.$/u, '').replace(/^www\./u, '');
  const port = url.port ? `:${url.port}` : '';
  return `${user}${host}${port}${url.pathname.replace(/\/+$/u, '')}${url.search}${url.hash}`;
}
