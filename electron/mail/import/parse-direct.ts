// Everyday mail read without mailparser's stream machinery (issues 5 and 18): most messages are one text part, a
// multipart/alternative of a plain and an HTML part, or one of those with files attached (multipart/mixed), and for
// those mailparser's streams, one per part and per decoding step, were most of an import's and a first sync's CPU
// (bench/README.md). Such a message is cut where mailsplit would cut it and decoded with the libraries mailparser
// itself uses, in the order it uses them: transfer encoding (libbase64, libqp), format=flowed (libmime), then
// charset (libmime, which falls back to encoding-japanese and iconv-lite); its header fields are read as
// mailparser's header processing reads them (libmime, mailparser's parseAddressHeader), an HTML-only message's
// text is made with mailparser's own call to html-to-text, and an attachment is listed as mailparser lists it,
// its body never decoded (the size strip-attachments.ts would give it). Anything else (a nested or related
// multipart, a forwarded message, a boundary line or a header block that mailsplit reads in one of its more
// forgiving ways, an odd charset or encoding token) returns null, and parse.ts hands it to mailparser.
// parse-direct.test.ts holds both readers to the same result on every charset and transfer encoding, on hand-made
// layouts and on both benchmark corpora; test/imap-sync-direct-read.test.ts on the stored rows of a synced sample.
import mailsplit from '@zone-eu/mailsplit';
import { htmlToText } from 'html-to-text';
import libbase64 from 'libbase64';
import libmime from 'libmime';
import { decode as charsetDecode } from 'libmime/lib/charset.js';
import libqp from 'libqp';
import { type AddressObject, parseAddressHeader } from 'mailparser';
import { detachedString } from '../../../shared/detached-string.ts';
import { estimatedSize, isAttachmentPart } from './strip-attachments.ts';

/** The part of simpleParser's result that parse.ts reads. */
export type ParsedMail = {
  messageId?: string;
  inReplyTo?: string;
  references?: string | string[];
  subject?: string;
  from?: AddressObject;
  replyTo?: AddressObject;
  to?: AddressObject | AddressObject[];
  cc?: AddressObject | AddressObject[];
  headerLines: readonly { key: string; line: string }[];
  text?: string;
  html?: string | false;
  attachments: {
    filename?: string;
    contentType: string;
    contentDisposition?: string;
    size?: number;
    contentId?: string;
  }[];
};

type HeaderLine = { key: string; line: string };
type Headers = { getList(): HeaderLine[]; get(key: string): string[]; getFirst(key: string): string };

// The fields simpleParser copies onto its result and parse.ts reads (the Date is read from the lines).
const readFields = new Set([
  'message-id',
  'in-reply-to',
  'references',
  'subject',
  'from',
  'reply-to',
  'to',
  'cc',
]);

// mailsplit refuses a header block past 1 MB, counting each line as at least 64 bytes; far below that,
// no block can reach the limit.
const maxHeadBytes = 16 * 1024;
// mailparser's bound on HTML nesting: below this many tags no HTML can reach it.
const maxHtmlTags = 1000;
// A charset or transfer encoding as mail writes them; anything else mailparser resolves its own way.
const token = /^[A-Za-z0-9._:+-]+$/;

type Part = { type: 'text/plain' | 'text/html'; content: string };
type Attachment = ParsedMail['attachments'][number];
/** Where a part stands: the message itself, the first part of a multipart/mixed (its body), or another part. */
type Place = 'root' | 'first' | 'child';
type Leaf = {
  type: string;
  charset: string | false;
  encoding: string;
  flowed: boolean;
  delSp: boolean;
  /** A multipart's boundary when it is a plain one; null otherwise. */
  boundary: string | null;
};

export type DirectOptions = {
  /** Mailparser's maxHtmlLengthToParse: longer HTML gets no text made from it. */
  maxHtmlLength: number;
};

/** The message read the way mailparser reads it, or null when it is not one of the plain layouts. */
export function readDirect(raw: Buffer, options: DirectOptions): ParsedMail | null {
  const head = headBlock(raw);
  if (!head) return null;
  const { headers } = head;
  const root = leafOf(headers, 'root');
  if (!root) return null;
  const body = raw.subarray(head.bodyStart);
  let parts: Part[] | null;
  let attachments: Attachment[] = [];
  if (root.type === 'multipart/mixed') {
    const mixed = root.boundary ? mixedParts(body, root.boundary) : null;
    if (!mixed) return null;
    ({ parts, attachments } = mixed);
  } else if (root.type === 'multipart/alternative') {
    parts = root.boundary ? alternativeParts(body, root.boundary) : null;
  } else {
    const part = decodePart(root, body);
    parts = part ? [part] : null;
  }
  if (!parts) return null;
  const plain = parts.filter((p) => p.type === 'text/plain');
  const html = parts.filter((p) => p.type === 'text/html');
  if (plain.length > 1 || html.length > 1) return null;

  const lines = headers.getList();
  const mail: ParsedMail = { ...readHeaders(lines), headerLines: lines, attachments };
  // As mailparser joins its text and HTML parts: an empty part adds nothing.
  if (plain[0]?.content) mail.text = plain[0].content;
  if (html[0]?.content) {
    mail.html = html[0].content;
    // A root HTML part is the one mailparser makes a text of, by html-to-text's defaults.
    if (root.type === 'text/html') {
      if (mail.html.length > options.maxHtmlLength) mail.text = '';
      else if (tagCount(mail.html) >= maxHtmlTags) return null;
      else mail.text = htmlToText(mail.html, { limits: { maxDepth: maxHtmlTags } });
    }
  }
  return mail;
}

// Most parts carry one of a few Content-Type lines ("text/plain; charset=UTF-8"), and reading one was a tenth
// of reading a message directly (issue 18): a part's type, read once from its lines, is read again from here.
// Shared, so never changed; emptied when full.
const leafCache = new Map<string, Leaf | null>();
const leafCacheSize = 1024;
const leafFields = new Set(['content-type', 'content-transfer-encoding', 'content-disposition']);

/** A part's body type and decoding, as mailsplit reads them from its header fields; null for what is not ours. */
function leafOf(headers: Headers, place: Place): Leaf | null {
  // What readLeaf reads of the header block: these fields' lines, in order, each after its length.
  let key: string = place;
  for (const { key: name, line } of headers.getList())
    if (leafFields.has(name)) key += `\n${line.length}:${line}`;
  let leaf = leafCache.get(key);
  if (leaf === undefined) {
    if (leafCache.size >= leafCacheSize) leafCache.clear();
    leaf = detachedLeaf(readLeaf(headers, place));
    leafCache.set(detachedString(key), leaf);
  }
  return leaf;
}

// What is kept here is cut from a message's header block, which it would keep alive (shared/detached-string.ts).
function detachedLeaf(leaf: Leaf | null): Leaf | null {
  if (!leaf) return null;
  const { type, charset, encoding, boundary } = leaf;
  return {
    ...leaf,
    type: detachedString(type),
    charset: charset === false ? false : detachedString(charset),
    encoding: detachedString(encoding),
    boundary: boundary === null ? null : detachedString(boundary),
  };
}

// The types read at each place; anything else is mailparser's.
const leafTypes: Record<Place, readonly string[]> = {
  root: ['text/plain', 'text/html', 'multipart/alternative', 'multipart/mixed'],
  first: ['text/plain', 'text/html', 'multipart/alternative'],
  child: ['text/plain', 'text/html'],
};

function readLeaf(headers: Headers, place: Place): Leaf | null {
  const types = headers.get('Content-Type');
  if (types.length > 1 || headers.get('Content-Transfer-Encoding').length > 1) return null;
  if (headers.get('Content-Disposition').length > 0) {
    const disposition = libmime.parseHeaderValue(headers.getFirst('Content-Disposition'), {
      stripComments: true,
    });
    if ((disposition.value || '').toLowerCase().trim() !== 'inline') return null;
  }
  // A root part without a Content-Type is text/plain (RFC 2045 §5.2); a child part without one is an attachment.
  if (types.length === 0 && place !== 'root') return null;
  const parsed = libmime.parseHeaderValue(
    types.length > 0 ? headers.getFirst('Content-Type') : 'text/plain',
    {
      stripComments: true,
    },
  );
  const type = (parsed.value || '').toLowerCase().trim();
  if (!leafTypes[place].includes(type)) return null;
  const charset = parsed.params.charset || false;
  const encoding = (headers.getFirst('Content-Transfer-Encoding') || '7bit').toLowerCase().trim();
  if ((charset !== false && !token.test(charset)) || !token.test(encoding)) return null;
  const flowed = type === 'text/plain' && (parsed.params.format || '').toLowerCase().trim() === 'flowed';
  const boundary = (parsed.params.boundary || '').trimEnd();
  return {
    type,
    charset,
    encoding,
    flowed,
    delSp: flowed && (parsed.params.delsp || '').toLowerCase().trim() === 'yes',
    // mailsplit takes only an ASCII boundary; a plain one keeps the search for delimiters exact.
    boundary: /^[A-Za-z0-9'()+_,./:=? -]{1,70}$/.test(boundary) ? boundary : null,
  };
}

/**
 * The bodies of a multipart's parts, in order, as mailsplit cuts them: each delimiter line exactly `--boundary` or
 * `--boundary--` and its line ending (whitespace or other text after it, which mailsplit reads in ways of its own,
 * returns null), the line break before a delimiter belonging to it, preamble and epilogue dropped.
 */
function multipartBodies(body: Buffer, boundary: string): Buffer[] | null {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const bodies: Buffer[] = [];
  // Where the part after the last delimiter starts; -1 before the first.
  let partStart = -1;
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, at + 1)) {
    if (at > 0 && body[at - 1] !== 0x0a) continue;
    let after = at + delimiter.length;
    const closing = body[after] === 0x2d && body[after + 1] === 0x2d;
    if (closing) after += 2;
    const eol = body[after] === 0x0d && body[after + 1] === 0x0a ? 2 : body[after] === 0x0a ? 1 : 0;
    if (eol === 0 && !(closing && after === body.length)) return null;
    if (partStart >= 0) {
      // The line break before the delimiter is the delimiter's.
      const stop = at - (at >= 2 && body[at - 2] === 0x0d ? 2 : 1);
      if (stop < partStart) return null;
      bodies.push(body.subarray(partStart, stop));
    }
    // After the closing delimiter comes the epilogue, which mailsplit reads as nothing, delimiters included.
    if (closing) return bodies.length > 0 ? bodies : null;
    partStart = after + eol;
  }
  return null;
}

/** The text parts of a multipart/alternative body, in order; null if one of them is anything else. */
function alternativeParts(body: Buffer, boundary: string): Part[] | null {
  const parts: Part[] = [];
  for (const bytes of multipartBodies(body, boundary) ?? []) {
    const part = childPart(bytes);
    if (!part) return null;
    parts.push(part);
  }
  return parts.length > 0 ? parts : null;
}

/**
 * A multipart/mixed of a body (a text part, or a multipart/alternative of text parts) and then attachments only,
 * the way a mail program sends a file (issue 18: mailparser took a fifth of an import's parsing for the 3 % of
 * everyday mail that carries one). Anything else in it (a second text part, a nested multipart or message, a
 * part the reader would have to guess about) returns null.
 */
function mixedParts(body: Buffer, boundary: string): { parts: Part[]; attachments: Attachment[] } | null {
  const bodies = multipartBodies(body, boundary);
  const [first, ...rest] = bodies ?? [];
  if (!first || first[0] === 0x0a || first[0] === 0x0d) return null;
  const head = headBlock(first);
  const leaf = head ? leafOf(head.headers, 'first') : null;
  if (!head || !leaf) return null;
  const content = first.subarray(head.bodyStart);
  let parts: Part[] | null;
  if (leaf.type === 'multipart/alternative')
    parts = leaf.boundary ? alternativeParts(content, leaf.boundary) : null;
  else {
    const part = decodePart(leaf, content);
    parts = part ? [part] : null;
  }
  if (!parts) return null;
  const attachments: Attachment[] = [];
  for (const bytes of rest) {
    const attachment = attachmentOf(bytes);
    if (!attachment) return null;
    attachments.push(attachment);
  }
  return { parts, attachments };
}

// The types mailparser reads as text when inline (its textTypes, delivery reports included).
const textTypes = ['text/plain', 'text/html', 'message/delivery-status'];
const transferEncodings = new Set(['7bit', '8bit', 'binary', 'base64', 'quoted-printable']);
const plainDisposition = /^[a-z-]+$/;

/**
 * An attachment part as mailparser lists it: mailsplit's type, disposition and file name (RFC 2231 or encoded
 * words), octet-stream named by the file's extension, and the size parse.ts would give it: estimated from the
 * encoded bytes where strip-attachments.ts cuts the body out, the decoded size where it does not. Null for a part
 * mailparser would read as text, or one whose header fields mailsplit reads in ways of its own.
 */
function attachmentOf(bytes: Buffer): Attachment | null {
  if (bytes[0] === 0x0a || bytes[0] === 0x0d || bytes.at(-1) === 0x0d) return null;
  const head = headBlock(bytes);
  if (!head) return null;
  const { headers } = head;
  if (
    headers.get('Content-Type').length !== 1 ||
    headers.get('Content-Transfer-Encoding').length > 1 ||
    headers.get('Content-Disposition').length > 1
  )
    return null;
  const type = libmime.parseHeaderValue(headers.getFirst('Content-Type'), { stripComments: true });
  const contentType = (type.value || '').toLowerCase().trim();
  if (!contentType || contentType.startsWith('multipart/') || contentType.startsWith('message/')) return null;
  // mailsplit strips comments from the transfer encoding its own way: one with a comment is not ours.
  const encodingLine = headers.getFirst('Content-Transfer-Encoding');
  const encoding = encodingLine.toLowerCase().trim() || '7bit';
  if (encodingLine.includes('(') || !transferEncodings.has(encoding)) return null;
  const disposition = libmime.parseHeaderValue(headers.getFirst('Content-Disposition'), {
    stripComments: true,
  });
  const dispositionValue = (disposition.value || '').toLowerCase().trim();
  if (dispositionValue && !plainDisposition.test(dispositionValue)) return null;
  // mailparser reads an inline text part as body text, not as an attachment.
  if (textTypes.includes(contentType) && (dispositionValue === '' || dispositionValue === 'inline'))
    return null;
  let filename: string = disposition.params.filename || type.params.name || '';
  const decodedAlready = disposition.params.filename
    ? decodedParams(disposition).includes('filename')
    : decodedParams(type).includes('name');
  if (filename && !decodedAlready) {
    try {
      filename = libmime.decodeWords(filename);
    } catch {
      // kept as it is, as mailsplit keeps it
    }
  }
  const named =
    contentType === 'application/octet-stream' && filename
      ? libmime.detectMimeType(filename) || contentType
      : contentType;
  // parse.ts gives the cut sizes to the attachments it finds cut by the named type: one named as text would not
  // take its size (and the next ones would take the wrong ones).
  const cut = isAttachmentPart(contentType, dispositionValue);
  if (cut !== isAttachmentPart(named, dispositionValue)) return null;
  const content = bytes.subarray(head.bodyStart);
  const size = cut ? estimatedSize(encoding, [content]) : transferDecoded(content, encoding).length;
  return {
    ...(filename ? { filename } : {}),
    contentType: named,
    ...(dispositionValue ? { contentDisposition: dispositionValue } : {}),
    size,
    // mailparser's contentId is the header's value as written; parse.ts takes the id out of it for either.
    ...(headers.getFirst('Content-ID').trim() ? { contentId: headers.getFirst('Content-ID').trim() } : {}),
  };
}

// libmime names the parameters it decoded from RFC 2231 form in a property its types leave out.
function decodedParams(value: object): readonly string[] {
  return (value as { decodedParams?: string[] }).decodedParams ?? [];
}

function childPart(bytes: Buffer): Part | null {
  // A part without header fields (an attachment to mailparser): not ours.
  if (bytes[0] === 0x0a || bytes[0] === 0x0d) return null;
  const head = headBlock(bytes);
  if (!head) return null;
  const leaf = leafOf(head.headers, 'child');
  return leaf ? decodePart(leaf, bytes.subarray(head.bodyStart)) : null;
}

function decodePart(leaf: Leaf, content: Buffer): Part | null {
  // A part that ends in a CR would end with its delimiter's line break where mailsplit cuts it.
  if (content.at(-1) === 0x0d) return null;
  let bytes = transferDecoded(content, leaf.encoding);
  if (leaf.flowed) bytes = Buffer.from(libmime.decodeFlowed(bytes.toString('binary'), leaf.delSp), 'binary');
  // mailparser reads ASCII and UTF-8 bodies as UTF-8 and every other charset through libmime, whose text
  // reaches it as UTF-8 bytes: an unpaired surrogate comes out as U+FFFD.
  const charset = leaf.charset || 'utf-8';
  let text: string;
  if (['ascii', 'usascii', 'utf8'].includes(charset.toLowerCase().replace(/[^a-z0-9]+/g, ''))) {
    text = bytes.toString();
  } else {
    text = charsetDecode(bytes, charset);
    if (/[\uD800-\uDFFF]/.test(text)) text = Buffer.from(text).toString();
  }
  // Most mail read from an mbox has LF line endings already: then there is nothing to replace.
  return {
    type: leaf.type as Part['type'],
    content: text.includes('\r') ? text.replace(/\r?\n/g, '\n') : text,
  };
}

// What mailsplit's decoders give for a whole body; other encodings pass through as they are.
function transferDecoded(content: Buffer, encoding: string): Buffer {
  if (encoding === 'quoted-printable') return libqp.decode(content);
  if (encoding !== 'base64') return content;
  // libbase64's Decoder: only base64 characters count; everything up to the last padding is decoded in
  // segments, the complete quartets after it next, and a short tail last.
  let b64 = content.toString('latin1').replace(/[^a-zA-Z0-9+/=]/g, '');
  const lastPad = b64.lastIndexOf('=');
  const padded = lastPad >= 0 ? b64.slice(0, lastPad + 1) : '';
  b64 = b64.slice(lastPad + 1);
  const tail = b64.length < 4 ? b64 : b64.slice(b64.length - (b64.length % 4));
  const body = padded + b64.slice(0, b64.length - tail.length);
  const pieces: Buffer[] = [];
  if (body) pieces.push(libbase64.decode(body));
  if (tail) pieces.push(libbase64.decode(tail));
  return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
}

/**
 * The header fields parse.ts reads, as mailparser's processHeaders gives them: each line's value decoded
 * (encoded words, then raw 8-bit bytes as UTF-8), a value that comes out empty skipped, the first of a
 * single field kept, To and Cc and References joined over all their lines.
 */
function readHeaders(lines: readonly HeaderLine[]): Omit<ParsedMail, 'headerLines' | 'attachments'> {
  const values = new Map<string, string[]>();
  for (const { key, line } of lines) {
    if (!readFields.has(key)) continue;
    const decoded = String(libmime.decodeHeader(line)?.value ?? '').trim();
    // The line was read as latin1: raw 8-bit bytes in it are UTF-8.
    const value = /[\u0080-\uffff]/.test(decoded) ? Buffer.from(decoded, 'binary').toString() : decoded;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  const words = (v: string) => {
    try {
      return libmime.decodeWords(v);
    } catch {
      return v;
    }
  };
  const ids = (key: string) => (values.get(key) ?? []).map((v) => messageIdFormat(words(v))).filter((v) => v);
  const subject = (values.get('subject') ?? []).map(words).find((v) => v);
  const references = (values.get('references') ?? []).flatMap((v) =>
    words(v)
      .split(/\s+/)
      .map(messageIdFormat)
      .filter((id) => id),
  );
  const from = values.get('from')?.[0];
  const replyTo = values.get('reply-to')?.[0];
  const to = values.get('to');
  const cc = values.get('cc');
  const addresses = (v: string | string[]) =>
    typeof v === 'string' || v.length === 1 ? addressesOf(String(v)) : parseAddressHeader(v);
  const [messageId] = ids('message-id');
  const [inReplyTo] = ids('in-reply-to');
  return {
    ...(messageId ? { messageId } : {}),
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(values.has('references') ? { references } : {}),
    ...(subject ? { subject } : {}),
    ...(from !== undefined ? { from: addresses(from) } : {}),
    ...(replyTo !== undefined ? { replyTo: addresses(replyTo) } : {}),
    ...(to ? { to: addresses(to) } : {}),
    ...(cc ? { cc: addresses(cc) } : {}),
  };
}

// The same few senders and recipients fill most of a mailbox (a tenth of the everyday corpus's From and To
// values are distinct), and parsing an address field was a seventh of reading a message directly (issue 18):
// a field's value read once is read again from here. The objects are shared, so nothing may change them
// (parse.ts only copies out of them). Emptied when full, which keeps it bounded without bookkeeping.
const addressCache = new Map<string, AddressObject>();
const addressCacheSize = 4096;

function addressesOf(value: string): AddressObject {
  let found = addressCache.get(value);
  if (!found) {
    if (addressCache.size >= addressCacheSize) addressCache.clear();
    // Read from a copy: the value is cut from the header block, which the cache would keep alive otherwise.
    const own = detachedString(value);
    found = parseAddressHeader(own);
    addressCache.set(own, found);
  }
  return found;
}

// mailparser's ensureMessageIDFormat: angle brackets added where missing, '' for nothing.
function messageIdFormat(v: string): string {
  if (!v) return '';
  return `${v.startsWith('<') ? '' : '<'}${v}${v.endsWith('>') ? '' : '>'}`;
}

/** Where the empty line that ends the header block starts, as mailsplit finds it; -1 for none. */
function headerEnd(raw: Buffer): number {
  const lf = raw.indexOf('\n\n');
  const crlf = raw.indexOf('\n\r\n');
  if (lf < 0) return crlf < 0 ? -1 : crlf + 1;
  return crlf < 0 || lf < crlf ? lf + 1 : crlf + 1;
}

/**
 * The header block of a message or part and where its body starts, as mailsplit cuts them: the block ends at
 * the first empty line, whichever line ending it has; a block that mixes line endings is not ours.
 */
function headBlock(bytes: Buffer): { headers: Headers; bodyStart: number } | null {
  // An end past maxHeadBytes is refused anyway, so the search needs to go no further than that.
  const end = headerEnd(bytes.subarray(0, maxHeadBytes + 3));
  if (end < 0 || end > maxHeadBytes) return null;
  const crlf = bytes[end] === 0x0d;
  const bodyStart = crlf ? end + 2 : end + 1;
  for (let at = bytes.indexOf(0x0a); at >= 0 && at < bodyStart; at = bytes.indexOf(0x0a, at + 1)) {
    if ((bytes[at - 1] === 0x0d) !== crlf) return null;
  }
  for (let at = bytes.indexOf(0x0d); at >= 0 && at < bodyStart; at = bytes.indexOf(0x0d, at + 1)) {
    if (!crlf || bytes[at + 1] !== 0x0a) return null;
  }
  return { headers: new mailsplit.Headers(bytes.subarray(0, bodyStart)) as unknown as Headers, bodyStart };
}

function tagCount(html: string, limit = maxHtmlTags): number {
  let n = 0;
  for (let at = html.indexOf('<'); at >= 0 && n < limit; at = html.indexOf('<', at + 1)) n++;
  return n;
}
