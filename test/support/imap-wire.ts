// The IMAP wire for the Gmail-like fixture (gmail-imap.ts), after RFC 3501 §9: reading a command into
// tokens, sequence sets, LIST patterns, names in modified UTF-7 (RFC 3501 §5.1.3) and quoting.
import iconv from 'iconv-lite';

export type Token = string | Buffer | Token[];

export const utf7 = (s: string) => (/[^\x20-\x7e]|&/.test(s) ? iconv.encode(s, 'utf-7-imap').toString() : s);
export const fromUtf7 = (s: string) => (/&[^-]*-/.test(s) ? iconv.decode(Buffer.from(s), 'utf-7-imap') : s);
export const quote = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
export const astring = (s: string) => (/^[\x21-\x7e]+$/.test(s) && !/[(){%*"\\\]]/.test(s) ? s : quote(s));
export const text = (t: Token | undefined) =>
  Buffer.isBuffer(t) ? t.toString('utf8') : typeof t === 'string' ? t : '';

/** One command's tokens: atoms (with any [section] kept whole), quoted strings, literals, lists. */
export function tokenize(input: Buffer): Token[] {
  let at = 0;
  const list = (): Token[] => {
    const out: Token[] = [];
    while (at < input.length) {
      const c = String.fromCharCode(input[at] as number);
      if (c === ' ') at += 1;
      else if (c === ')') {
        at += 1;
        return out;
      } else if (c === '(') {
        at += 1;
        out.push(list());
      } else if (c === '"') {
        let s = '';
        for (at += 1; input[at] !== 0x22; at += 1) {
          if (input[at] === 0x5c) at += 1;
          s += String.fromCharCode(input[at] as number);
        }
        at += 1;
        out.push(Buffer.from(s, 'latin1').toString('utf8'));
      } else if (c === '{') {
        const close = input.indexOf('}', at);
        const size = Number.parseInt(input.subarray(at + 1, close).toString(), 10);
        at = close + 3; // "}\r\n"
        out.push(input.subarray(at, at + size));
        at += size;
      } else {
        let s = '';
        for (let depth = 0; at < input.length; at += 1) {
          const ch = String.fromCharCode(input[at] as number);
          if (depth === 0 && (ch === ' ' || ch === '(' || ch === ')')) break;
          if (ch === '[') depth += 1;
          if (ch === ']') depth -= 1;
          s += ch;
        }
        out.push(s);
      }
    }
    return out;
  };
  return list();
}

/** A sequence set (`1,3:5,7:*`) as a test over numbers, `*` being `max`. */
export function inSet(set: string, max: number): (n: number) => boolean {
  const ranges = set.split(',').map((r) => {
    const [a = '', b = a] = r.split(':');
    const [x, y] = [a, b].map((v) => (v === '*' ? max : Number(v))) as [number, number];
    return [Math.min(x, y), Math.max(x, y)] as const;
  });
  return (n) => ranges.some(([lo, hi]) => n >= lo && n <= hi);
}

/** A LIST pattern: `*` matches anything, `%` anything but the delimiter. */
export function matches(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/%/g, '[^/]*');
  return new RegExp(`^${re}$`, 'i').test(name);
}

export function imapDate(d: Date): string {
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}-${months[d.getUTCMonth()]}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
