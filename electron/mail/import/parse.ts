// Parse one raw RFC 5322 message once, at import (DESIGN §11). mailparser was chosen over postal-mime
// after measuring both on the same corpus (bench/parse.ts; figures in the README): it decodes charsets
// through iconv-lite and was the faster of the two on mail with attachments.
import { createHash } from 'node:crypto';
import { convert } from 'html-to-text';
import { type AddressObject, simpleParser } from 'mailparser';
import { contentIdOf } from '../../../shared/content-id.ts';
import type { Address, Attachment, MessageWarning } from '../../../shared/contract/index.ts';
import { readUnsubscribeHeaders, type UnsubscribeLinks } from '../unsubscribe/list-unsubscribe.ts';
import { contentWarnings } from '../warnings/message-warnings.ts';
import { readTrustHeaders, type TrustHeaders } from '../warnings/trust-headers.ts';
import { type MailFlags, statusHeaderFlags } from './mail-flags.ts';
import { maxMessageBytes, maxStoredText, ParseError } from './parse-bounds.ts';
import { type ParsedMail, readDirect } from './parse-direct.ts';
import { isAttachmentPart, type Stripped, stripAttachmentBodies } from './strip-attachments.ts';

export type ParsedMessage = {
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  from: Address;
  /** Where a reply goes instead of From (RFC 5322 §3.6.2); empty when the message names none. */
  replyTo: Address[];
  to: Address[];
  cc: Address[];
  date: number;
  text: string;
  html: string | null;
  attachments: Attachment[];
  contentHash: string;
  size: number;
  /** What the warnings read and nothing stores: Authentication-Results and Reply-To (mail/warnings/). */
  trust: TrustHeaders;
  /** The warnings of the bodies alone, found here, on the parse thread (mail/warnings/message-warnings.ts). */
  contentWarnings: MessageWarning[];
  /**
   * What its Status, X-Status or X-Mozilla-Status header says (mail-flags.ts); absent without one. The import takes
   * it for a message of an mbox or an .eml file, never a Maildir's (its file name decides) or a synced one's.
   */
  statusFlags?: MailFlags;
  /** How it offers to unsubscribe (List-Unsubscribe, RFC 2369/8058); absent when it offers no usable way. */
  unsubscribe?: UnsubscribeLinks;
};

const maxIdLength = 998; // RFC 5322 line limit: anything longer is not a real Message-ID
const maxRefs = 100;

export type ParseOptions = {
  /**
   * The message was rebuilt from a synced message's text parts (imap-message.ts): there are no attachment
   * bodies to cut out, and the parse pool reads it on the calling thread when it can (parse-pool.ts).
   * False by default.
   */
  rebuilt?: boolean;
};

export async function parseMessage(raw: Buffer, options: ParseOptions = {}): Promise<ParsedMessage> {
  return (await parseSaying(raw, options)).parsed;
}

/** parseMessage, saying which reader read the message: the parse pool counts them (parse-pool.ts). */
export async function parseSaying(
  raw: Buffer,
  options: ParseOptions = {},
): Promise<{ parsed: ParsedMessage; direct: boolean }> {
  if (raw.length === 0) throw new ParseError('The message is empty.');
  if (raw.length > maxMessageBytes) throw new ParseError('The message is larger than 100 MB.');
  if (!looksLikeMessage(raw)) throw new ParseError('The file does not start with mail headers.');
  // Everyday mail (one text part, or plain and HTML as alternatives) is read directly (parse-direct.ts).
  const direct = readDirectMessage(raw);
  return direct
    ? { parsed: direct, direct: true }
    : { parsed: await parseWithMailparser(raw, options), direct: false };
}

/** Any message through mailparser, attachment bodies cut out first; the direct reader's measure in its tests. */
export async function parseWithMailparser(raw: Buffer, options: ParseOptions = {}): Promise<ParsedMessage> {
  // If the splitter cannot read the structure, mailparser gets the original and decides.
  const stripped: Stripped = options.rebuilt
    ? { raw, sizes: [] }
    : await stripAttachmentBodies(raw).catch(() => ({ raw, sizes: [] }));
  const parsed = await simpleParser(stripped.raw, {
    skipImageLinks: true,
    skipTextLinks: true,
    skipTextToHtml: true,
    keepCidLinks: true,
    // Big HTML parts are still stored; they are just not converted to a text body by mailparser.
    maxHtmlLengthToParse: maxStoredText,
  });
  return fromParsed(parsed, raw, stripped.sizes);
}

/**
 * A message of one of the everyday layouts read at once (parse-direct.ts): a text part, or a plain and an
 * HTML part as alternatives; null for anything else, which parseMessage hands to mailparser. A failure
 * here is also null: mailparser then decides, as it did before this path existed.
 */
export function readDirectMessage(raw: Buffer): ParsedMessage | null {
  if (raw.length === 0 || raw.length > maxMessageBytes || !looksLikeMessage(raw)) return null;
  try {
    const read = readDirect(raw, { maxHtmlLength: maxStoredText });
    return read ? fromParsed(read, raw, []) : null;
  } catch {
    return null;
  }
}

/** What is stored of a message, from what mailparser (or parse-direct.ts, the same way) read in it. */
function fromParsed(parsed: ParsedMail, raw: Buffer, strippedSizes: readonly number[]): ParsedMessage {
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  // mailparser converts HTML to text only for some layouts (not an HTML part inside multipart/mixed);
  // search and snippets need text for every message.
  const text = clipText(parsed.text?.trim() ? parsed.text : html ? htmlText(html) : '');
  const storedHtml = html === null ? null : clipText(html);
  const statusFlags = statusHeaderFlags(parsed.headerLines);
  const unsubscribe = readUnsubscribeHeaders(raw);
  return {
    messageId: cleanId(parsed.messageId) ?? '',
    inReplyTo: cleanId(parsed.inReplyTo),
    references: toList(parsed.references)
      .map(cleanId)
      .filter((id): id is string => id !== null)
      .slice(-maxRefs),
    subject: clip(oneLine(parsed.subject ?? ''), 1000),
    from: firstAddress(parsed.from),
    replyTo: addresses(parsed.replyTo),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    date: headerDate(parsed.headerLines),
    text,
    html: storedHtml,
    attachments: attachmentList(parsed.attachments, strippedSizes),
    contentHash: createHash('sha256').update(raw).digest('hex'),
    size: raw.length,
    trust: readTrustHeaders(raw),
    contentWarnings: contentWarnings(text, storedHtml),
    ...(statusFlags && { statusFlags }),
    ...(unsubscribe && { unsubscribe }),
  };
}

// A message must open with something header-shaped ("Name: value"); otherwise mailparser happily turns
// any file (a PDF, a photo) into a message with an empty header block.
export function looksLikeMessage(raw: Buffer): boolean {
  const head = raw.subarray(0, 1024).toString('latin1');
  return /^[\t ]*[!-9;-~]+[\t ]*:/.test(head);
}

// Attachments whose bodies were cut out take their sizes, in order, from the splitter's estimate.
function attachmentList(
  list: readonly {
    filename?: string;
    contentType: string;
    contentDisposition?: string;
    size?: number;
    contentId?: string;
  }[],
  strippedSizes: readonly number[],
): Attachment[] {
  let next = 0;
  return list.map((a) => {
    const contentType = a.contentType || 'application/octet-stream';
    const cut = isAttachmentPart(contentType, a.contentDisposition ?? '') && next < strippedSizes.length;
    const contentId = contentIdOf(a.contentId);
    return {
      name: clip(oneLine(a.filename ?? ''), 255),
      contentType: clip(contentType, 255),
      size: cut ? (strippedSizes[next++] ?? 0) : (a.size ?? 0),
      ...(contentId ? { contentId } : {}),
    };
  });
}

function htmlText(html: string): string {
  if (html.length > maxStoredText) return '';
  try {
    return convert(html, {
      limits: { maxDepth: 100 },
      selectors: [
        { selector: 'img', format: 'skip' },
        { selector: 'a', options: { ignoreHref: true } },
      ],
    });
  } catch {
    return '';
  }
}

function toList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : v.split(/\s+/);
}

function cleanId(id: string | undefined | null): string | null {
  if (!id) return null;
  const trimmed = oneLine(id);
  if (trimmed.length === 0 || trimmed.length > maxIdLength) return null;
  return trimmed;
}

function addresses(field: AddressObject | AddressObject[] | undefined): Address[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  const out: Address[] = [];
  for (const obj of list) {
    for (const a of obj.value) {
      if (a.group) {
        for (const g of a.group) out.push({ name: oneLine(g.name ?? ''), address: oneLine(g.address ?? '') });
      } else {
        out.push({ name: clip(oneLine(a.name ?? ''), 300), address: clip(oneLine(a.address ?? ''), 300) });
      }
      if (out.length >= 500) return out;
    }
  }
  return out;
}

function firstAddress(field: AddressObject | undefined): Address {
  return addresses(field)[0] ?? { name: '', address: '' };
}

// mailparser substitutes the current time for a missing or unreadable Date header, which would show an
// old message as arriving today; read the header ourselves and use 0 (no date) instead.
function headerDate(lines: readonly { key: string; line: string }[]): number {
  const line = lines.find((h) => h.key === 'date')?.line;
  if (!line) return 0;
  const t = new Date(line.slice(line.indexOf(':') + 1).trim()).getTime();
  return Number.isFinite(t) ? t : 0;
}

function oneLine(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) : s;
}

function clipText(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL bytes are never text
  const clean = s.replace(/\u0000/g, '');
  return clean.length > maxStoredText ? `${clean.slice(0, maxStoredText)}\n[… truncated by Skimmer]` : clean;
}
