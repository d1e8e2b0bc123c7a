// The MIME encodings the synthetic mailbox is written in: legacy charsets, quoted-printable (RFC 2045
// §6.7), base64 at 76 columns, RFC 2047 encoded words, header folding and mboxrd escaping.
import Encoding from 'encoding-japanese';
import iconv from 'iconv-lite';

export type Charset =
  | 'utf-8'
  | 'iso-8859-1'
  | 'windows-1252'
  | 'iso-8859-2'
  | 'koi8-r'
  | 'shift_jis'
  | 'iso-2022-jp'
  | 'gb2312'
  | 'gb18030'
  | 'big5'
  | 'euc-kr';

// How each charset is spelled in headers, as common mail clients write it.
export const charsetLabel: Record<Charset, string> = {
  'utf-8': 'UTF-8',
  'iso-8859-1': 'ISO-8859-1',
  'windows-1252': 'windows-1252',
  'iso-8859-2': 'ISO-8859-2',
  'koi8-r': 'KOI8-R',
  shift_jis: 'Shift_JIS',
  'iso-2022-jp': 'ISO-2022-JP',
  gb2312: 'GB2312',
  gb18030: 'GB18030',
  big5: 'Big5',
  'euc-kr': 'EUC-KR',
};

function encodeText(text: string, charset: Charset): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  // iconv-lite cannot encode ISO-2022-JP (feasibility §C); encoding-japanese's "JIS" is ISO-2022-JP.
  if (charset === 'iso-2022-jp') {
    return Buffer.from(
      Encoding.convert(Encoding.stringToCode(text), { to: 'JIS', from: 'UNICODE', type: 'array' }),
    );
  }
  return iconv.encode(text, charset);
}

function decodeText(buf: Buffer, charset: Charset): string {
  if (charset === 'iso-2022-jp') {
    return Encoding.codeToString(Encoding.convert([...buf], { to: 'UNICODE', from: 'JIS', type: 'array' }));
  }
  return iconv.decode(buf, charset);
}

// The generator only writes text its charset can carry; a "?" substitution would make the expected
// subject in the sidecar wrong, so an unencodable string is a bug in words.ts, not something to hide.
export function encodeExactly(text: string, charset: Charset): Buffer {
  const buf = encodeText(text, charset);
  if (charset !== 'utf-8' && decodeText(buf, charset) !== text) {
    throw new Error(`${charset} cannot carry ${JSON.stringify(text)}`);
  }
  return buf;
}

const hex = Array.from({ length: 256 }, (_, i) => `=${i.toString(16).toUpperCase().padStart(2, '0')}`);

export function quotedPrintable(buf: Buffer): string {
  const lines: string[] = [];
  let line = '';
  const endLine = () => {
    const last = line.charCodeAt(line.length - 1);
    // Trailing white space before a hard break must be encoded (RFC 2045 §6.7 rule 3).
    if (last === 0x20 || last === 0x09) line = line.slice(0, -1) + hex[last];
    lines.push(line);
    line = '';
  };
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i] as number;
    if (b === 0x0a) {
      endLine();
      continue;
    }
    if (b === 0x0d) continue;
    const token =
      b === 0x09 || b === 0x20 || (b >= 33 && b <= 126 && b !== 61) ? String.fromCharCode(b) : hex[b];
    if (line.length + (token as string).length > 73) {
      lines.push(`${line}=`);
      line = '';
    }
    line += token;
  }
  if (line.length > 0) endLine();
  return lines.join('\n');
}

export function base64Lines(buf: Buffer): string {
  const s = buf.toString('base64');
  const parts: string[] = [];
  for (let i = 0; i < s.length; i += 76) parts.push(s.slice(i, i + 76));
  return parts.join('\n');
}

function qWord(buf: Buffer): string {
  let out = '';
  for (const b of buf) {
    if (b === 0x20) out += '_';
    else if (
      (b >= 48 && b <= 57) ||
      (b >= 65 && b <= 90) ||
      (b >= 97 && b <= 122) ||
      b === 0x2e ||
      b === 0x2d
    ) {
      out += String.fromCharCode(b);
    } else out += hex[b];
  }
  return out;
}

function encodedWord(text: string, charset: Charset, mode: 'B' | 'Q'): string {
  const buf = encodeExactly(text, charset);
  return `=?${charsetLabel[charset]}?${mode}?${mode === 'B' ? buf.toString('base64') : qWord(buf)}?=`;
}

// RFC 2047 §2: an encoded word is at most 75 characters, and each one must decode on its own, so the
// text is cut between characters (and ISO-2022-JP returns to ASCII at the end of every word). Adjacent
// encoded words are separated by folding white space, which decoders drop (§6.2).
export function encodedWords(text: string, charset: Charset, mode: 'B' | 'Q'): string {
  const chars = Array.from(text);
  const words: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = start + 1;
    let best = encodedWord(chars.slice(start, end).join(''), charset, mode);
    while (end < chars.length) {
      const next = encodedWord(chars.slice(start, end + 1).join(''), charset, mode);
      if (next.length > 75) break;
      best = next;
      end++;
    }
    words.push(best);
    start = end;
  }
  return words.join('\n ');
}

export function isAscii(s: string): boolean {
  return /^[\x20-\x7e]*$/.test(s);
}

// Unstructured header folded at spaces near 78 columns (RFC 5322 §2.2.3).
export function foldHeader(name: string, value: string): string {
  const words = value.split(' ');
  const lines: string[] = [];
  let line = `${name}:`;
  for (const w of words) {
    if (line.length + 1 + w.length > 78 && line.length > name.length + 1) {
      lines.push(line);
      line = ` ${w}`;
    } else line += ` ${w}`;
  }
  lines.push(line);
  return lines.join('\n');
}

// mboxrd: every line that starts with zero or more ">" and then "From " gets one more ">".
export function escapeFromLines(text: string): { text: string; escaped: number } {
  let escaped = 0;
  const out = text.replace(/^(>*From )/gm, (m) => {
    escaped++;
    return `>${m}`;
  });
  return { text: out, escaped };
}
