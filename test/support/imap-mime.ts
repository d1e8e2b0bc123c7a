// The MIME side of the Gmail-like IMAP fixture (gmail-imap.ts): a message split into its parts, and what a
// server says of them, BODYSTRUCTURE and BODY[section] (RFC 3501 §6.4.5, §7.4.2). Enough for the plain and
// multipart messages tests build, not for every message on earth: message/rfc822 parts are described like
// any other leaf (no ENVELOPE inside).

export type Part = { header: Buffer; body: Buffer; children: Part[] };

const crlfcrlf = Buffer.from('\r\n\r\n');

/** Header block (with its blank line) and body of a message or part. */
function split(raw: Buffer): { header: Buffer; body: Buffer } {
  const end = raw.indexOf(crlfcrlf);
  if (end < 0) return { header: raw, body: Buffer.alloc(0) };
  return { header: raw.subarray(0, end + 4), body: raw.subarray(end + 4) };
}

/** The unfolded value of a header field, or '' when there is none. */
export function field(header: Buffer, name: string): string {
  const text = header.toString('latin1').replace(/\r\n[ \t]+/g, ' ');
  const found = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(text);
  return found?.[1]?.trim() ?? '';
}

/** `type/subtype; a=b; c="d"` as its lower-case type, subtype and parameters. */
function contentType(value: string, fallback: string) {
  const [full = fallback, ...rest] = (value || fallback).split(';');
  const [type = 'text', subtype = 'plain'] = full.trim().toLowerCase().split('/');
  const params: [string, string][] = [];
  for (const p of rest) {
    const m = /^\s*([^=\s]+)\s*=\s*"?([^"]*)"?\s*$/.exec(p);
    if (m?.[1]) params.push([m[1].toLowerCase(), m[2] ?? '']);
  }
  return { type, subtype, params };
}

export function parsePart(raw: Buffer): Part {
  const { header, body } = split(raw);
  const ct = contentType(field(header, 'content-type'), 'text/plain');
  const boundary = ct.params.find(([k]) => k === 'boundary')?.[1];
  if (ct.type !== 'multipart' || !boundary) return { header, body, children: [] };
  // The parts lie between "--boundary" lines; the CRLF before each delimiter belongs to it.
  const text = body.toString('latin1');
  const delimiter = new RegExp(
    `(?:^|\\r\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(--)?[ \\t]*(?:\\r\\n|$)`,
    'g',
  );
  const children: Part[] = [];
  let start = -1;
  for (const m of text.matchAll(delimiter)) {
    if (start >= 0) children.push(parsePart(body.subarray(start, m.index)));
    if (m[1]) break;
    start = (m.index ?? 0) + m[0].length;
  }
  return { header, body, children };
}

const q = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
const nstring = (s: string) => (s ? q(s) : 'NIL');
const params = (list: [string, string][]) =>
  list.length === 0 ? 'NIL' : `(${list.map(([k, v]) => `${q(k)} ${q(v)}`).join(' ')})`;
const lines = (b: Buffer) => b.toString('latin1').split('\r\n').length - 1;

/** The BODYSTRUCTURE of a part, with the extension data imapflow reads (disposition). */
export function bodyStructure(part: Part): string {
  const ct = contentType(field(part.header, 'content-type'), 'text/plain');
  if (part.children.length > 0) {
    return `(${part.children.map(bodyStructure).join('')} ${q(ct.subtype)} ${params(ct.params)} NIL NIL NIL)`;
  }
  const encoding = field(part.header, 'content-transfer-encoding').toLowerCase() || '7bit';
  const disposition = contentType(field(part.header, 'content-disposition'), '');
  const dispositionText = disposition.type ? `(${q(disposition.type)} ${params(disposition.params)})` : 'NIL';
  const basic = `${q(ct.type)} ${q(ct.subtype)} ${params(ct.params)} ${nstring(field(part.header, 'content-id'))} NIL ${q(encoding)} ${part.body.length}`;
  const textLines = ct.type === 'text' ? ` ${lines(part.body)}` : '';
  return `(${basic}${textLines} NIL ${dispositionText} NIL NIL)`;
}

/** BODY[section] of a message: '', HEADER, TEXT, HEADER.FIELDS (…), a part number; null if there is none. */
export function section(raw: Buffer, spec: string): Buffer | null {
  const root = parsePart(raw);
  const upper = spec.toUpperCase();
  if (upper === '') return raw;
  if (upper === 'HEADER') return root.header;
  if (upper === 'TEXT') return root.body;
  const fields = /^HEADER\.FIELDS(\.NOT)?\s*\((.*)\)$/.exec(upper);
  if (fields) {
    const names = new Set((fields[2] ?? '').split(/\s+/).filter(Boolean));
    const kept = root.header
      .toString('latin1')
      .replace(/\r\n\r\n$/, '\r\n')
      .split(/\r\n(?![ \t])/)
      .filter((f) => f && names.has(f.slice(0, f.indexOf(':')).toUpperCase()) !== Boolean(fields[1]));
    return Buffer.from(`${kept.map((f) => `${f}\r\n`).join('')}\r\n`, 'latin1');
  }
  if (!/^\d+(\.\d+)*$/.test(upper)) return null;
  let part = root;
  for (const n of upper.split('.').map(Number)) {
    // A part that is not multipart is its own part 1.
    const next = part.children.length === 0 && n === 1 ? part : part.children[n - 1];
    if (!next) return null;
    part = next;
  }
  return part.body;
}
