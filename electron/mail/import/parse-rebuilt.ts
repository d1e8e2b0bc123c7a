// A synced message rebuilt by imap-message.ts, read without mailparser (issue 5: the first sync was bound
// by CPU, and mailparser's stream machinery was most of it; bench/README.md). Such a message has a known
// layout, written by us: the fetched header fields, then one text part or a multipart/alternative of a
// text/plain and a text/html part. Its parts are cut out where we put them and decoded with the
// libraries mailparser itself uses, in the order it uses them: transfer encoding (libbase64, libqp),
// then charset (libmime, which falls back to encoding-japanese and iconv-lite), and the header fields are
// read as mailparser's header processing reads them (libmime, mailparser's parseAddressHeader). Whatever
// is not that layout exactly (a header block that mailsplit would end early or refuse, an odd charset or
// encoding token, an HTML-only message, which mailparser converts to text with its own rules) returns
// null, and parse.ts hands it to mailparser. parse-rebuilt.test.ts holds both readers to the same result
// on every charset and transfer encoding and on broken parts, test/imap-sync-direct-read.test.ts on the
// stored rows of a corpus sample.
import mailsplit from '@zone-eu/mailsplit';
import libbase64 from 'libbase64';
import libmime from 'libmime';
import { decode as charsetDecode } from 'libmime/lib/charset.js';
import libqp from 'libqp';
import { type AddressObject, parseAddressHeader } from 'mailparser';

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
  attachments: { filename?: string; contentType: string; contentDisposition?: string; size?: number }[];
};

type HeaderLine = { key: string; line: string };

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
// What rebuild() writes: a token charset and transfer encoding, as BODYSTRUCTURE gave them.
const token = /^[A-Za-z0-9._:+-]+$/;
const partHead =
  /^Content-Type: (text\/plain|text\/html); charset="([^"]*)"\r\nContent-Transfer-Encoding: ([^\r\n]*)\r\n$/;
const rootSingle =
  /\r\nMIME-Version: 1\.0\r\n(Content-Type: text\/(?:plain|html); charset="[^"]*"\r\nContent-Transfer-Encoding: [^\r\n]*\r\n)$/;
// A message with no text part at all (only attachments) is rebuilt with an empty text/plain body.
const rootEmpty = /\r\nMIME-Version: 1\.0\r\nContent-Type: text\/plain; charset=us-ascii\r\n$/;
const rootAlternative =
  /\r\nMIME-Version: 1\.0\r\nContent-Type: multipart\/alternative; boundary="(skimmer-[0-9a-f]{24}-*)"\r\n$/;

type Part = { type: 'text/plain' | 'text/html'; content: string };

/** The message read the way mailparser reads it, or null when it is not a rebuilt message's plain layout. */
export function readRebuilt(raw: Buffer): ParsedMail | null {
  // mailsplit ends the header block at the first empty line, whichever line ending it has.
  const end = headerEnd(raw);
  if (end < 0 || end > maxHeadBytes || raw[end] !== 0x0d) return null;
  const head = raw.toString('latin1', 0, end);
  let parts: Part[] | null;
  const single = rootSingle.exec(head);
  if (single) {
    const part = decodePart(single[1] as string, raw.subarray(end + 2));
    parts = part ? [part] : null;
  } else if (rootEmpty.test(head)) {
    parts = raw.length === end + 2 ? [] : null;
  } else {
    const alternative = rootAlternative.exec(head);
    parts = alternative ? alternativeParts(raw.subarray(end + 2), alternative[1] as string) : null;
  }
  if (!parts) return null;
  const plain = parts.find((p) => p.type === 'text/plain');
  const html = parts.find((p) => p.type === 'text/html');
  // mailparser makes the text of an HTML-only message from the HTML by rules of its own.
  if (html && !plain) return null;

  const lines = new mailsplit.Headers(raw.subarray(0, end + 2)).getList() as HeaderLine[];
  // The body fields must be the ones rebuild() wrote: mailsplit would follow the first of any others.
  const bodyFields = lines.filter((l) => l.key === 'content-type' || l.key === 'content-transfer-encoding');
  if (bodyFields.length !== (parts.length === 1 ? 2 : 1)) return null;
  const mail: ParsedMail = { ...readHeaders(lines), headerLines: lines, attachments: [] };
  // As mailparser joins its text and HTML parts: an empty part adds nothing.
  if (plain?.content) mail.text = plain.content;
  if (html?.content) mail.html = html.content;
  return mail;
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
  const [messageId] = ids('message-id');
  const [inReplyTo] = ids('in-reply-to');
  return {
    ...(messageId ? { messageId } : {}),
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(values.has('references') ? { references } : {}),
    ...(subject ? { subject } : {}),
    ...(from !== undefined ? { from: parseAddressHeader(from) } : {}),
    ...(replyTo !== undefined ? { replyTo: parseAddressHeader(replyTo) } : {}),
    ...(to ? { to: parseAddressHeader(to) } : {}),
    ...(cc ? { cc: parseAddressHeader(cc) } : {}),
  };
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

/** The parts of the multipart/alternative body that rebuild() wrote, in order. */
function alternativeParts(body: Buffer, boundary: string): Part[] | null {
  const open = `--${boundary}\r\n`;
  const close = `--${boundary}--\r\n`;
  if (!body.subarray(0, open.length).equals(Buffer.from(open, 'latin1'))) return null;
  const parts: Part[] = [];
  let at = 0;
  while (body.subarray(at, at + open.length).toString('latin1') === open) {
    const start = at + open.length;
    const blank = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(`\r\n--${boundary}`, start);
    if (blank < 0 || next < 0 || blank > next) return null;
    const content = body.subarray(blank + 4, next);
    // A part that ends in a CR would end with its delimiter's line break where mailsplit cuts it.
    if (content.at(-1) === 0x0d) return null;
    const part = decodePart(body.toString('latin1', start, blank + 2), content);
    if (!part) return null;
    parts.push(part);
    at = next + 2;
  }
  if (body.toString('latin1', at) !== close || parts.length === 0 || parts.length > 2) return null;
  return parts;
}

function decodePart(head: string, content: Buffer): Part | null {
  const m = partHead.exec(head);
  if (!m) return null;
  const [, type, charset, encoding] = m as unknown as [string, Part['type'], string, string];
  if (!token.test(charset) || !token.test(encoding)) return null;
  const bytes = transferDecoded(content, encoding.toLowerCase());
  // mailparser reads ASCII and UTF-8 bodies as UTF-8 and every other charset through libmime, whose text
  // reaches it as UTF-8 bytes: an unpaired surrogate comes out as U+FFFD.
  let text: string;
  if (['ascii', 'usascii', 'utf8'].includes(charset.toLowerCase().replace(/[^a-z0-9]+/g, ''))) {
    text = bytes.toString();
  } else {
    text = charsetDecode(bytes, charset);
    if (/[\uD800-\uDFFF]/.test(text)) text = Buffer.from(text).toString();
  }
  return { type, content: text.replace(/\r?\n/g, '\n') };
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
