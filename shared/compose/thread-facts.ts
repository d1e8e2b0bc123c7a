// The amounts, numbers, dates and times of a drafted reply, checked against the thread it answers (issue 17,
// DESIGN §11 "Drafted replies"): each is read into normalised keys (`40,000`, `40000`, `40k` and `$40,000` are
// all `n:40000`; `Dec 14`, `14 December` and `12/14` are `md:12-14`; `3pm` and `15:00` are `t:15:00`) and one
// found in none of the thread's messages is "not found in the thread". Main checks the model's draft; the
// composer runs the same check on the text as the user edits it, against the keys main sent. Pure.
//
// What is read: ISO dates (2026-12-14), numeric dates (12/14, 14/12/2026: month first unless the first part
// is over 12, as US mail writes them), a month's name with a day and an optional year (Dec 14, 14th of
// December 2026), a bare ordinal day (the 14th), times (3pm, 3:30 p.m., 15:00, noon), and numbers with a
// currency sign, thousands commas, decimals, a k/m/bn or thousand/million/billion suffix and a percent sign.
// Weekdays and words like "tomorrow" are not read: they name no number the thread could hold.

export type Fact = { text: string; kind: 'number' | 'date' | 'time' };
export type Unverified = { text: string; reason: string };

/** The reason every unverified fact carries, as the composer shows it. */
export const notInThread = 'not found in the thread';

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const month =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const ordinal = '(?:st|nd|rd|th)';
const suffixes: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  bn: 1e9,
  billion: 1e9,
};

// One scan, the alternatives tried in this order at each place, so `Dec 14` is a date and not the number 14,
// and `15:00` a time. `(?<![\w.])` keeps a digit inside a word or an id (`m12`, `v2.1`) from being read.
const scanner = new RegExp(
  [
    String.raw`(?<iso>(?<![\w.])(?<isoY>\d{4})-(?<isoM>\d{1,2})-(?<isoD>\d{1,2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-]))`,
    String.raw`(?<slash>(?<![\w./])(?<sA>\d{1,2})/(?<sB>\d{1,2})(?:/(?<sY>\d{4}|\d{2}))?(?![\w/]))`,
    String.raw`(?<md>\b(?<mdM>${month})\.?\s+(?<mdD>\d{1,2})${ordinal}?(?![\w:])(?:,?\s+(?<mdY>\d{4})(?!\w))?)`,
    String.raw`(?<dm>(?<![\w.])(?<dmD>\d{1,2})${ordinal}?\s+(?:of\s+)?(?<dmM>${month})\b\.?(?:,?\s+(?<dmY>\d{4})(?!\w))?)`,
    String.raw`(?<ampm>(?<![\w.:])(?<apH>\d{1,2})(?::(?<apM>[0-5]\d))?\s*(?<ap>a\.m\.|p\.m\.|am|pm)(?![a-z]))`,
    String.raw`(?<clock>(?<![\w.:])(?<cH>[01]?\d|2[0-3])[:h](?<cM>[0-5]\d)(?![\w:]))`,
    String.raw`(?<word>\b(?<w>noon|midnight)\b)`,
    String.raw`(?<day>(?<![\w.])(?<dD>\d{1,2})${ordinal}(?!\w))`,
    String.raw`(?<num>(?:[$€£¥]\s?)?(?<![\w.])(?<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?<frac>\d+))?(?:\s?(?<suf>k|m|bn|thousand|million|billion)(?![a-z]))?(?<pct>\s?%)?(?![a-z\d]))`,
  ].join('|'),
  'gi',
);

const two = (n: number) => String(n).padStart(2, '0');
const validDay = (m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= 31;
const monthOf = (name: string) => months.indexOf(name.slice(0, 3).toLowerCase()) + 1;
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** A number as one key, however it was written: `40k`, `40,000` and `40000.00` are one. */
const numberKey = (n: number) => `n:${Number(n.toPrecision(12))}`;

// A fact's keys in two roles: `has` what the thread holding it knows, `needs` any one of which the thread must
// know for the draft's fact to be found. A date without a year is found in the thread's date with one, and a
// thread's date without a year is found by the draft's with one; a bare day (the 14th) by any date on that day.
type Keys = { fact: Fact; has: string[]; needs: string[] };

function dateKeys(text: string, y: number | null, m: number, d: number): Keys | null {
  if (!validDay(m, d)) return null;
  const md = `${two(m)}-${two(d)}`;
  const fact: Fact = { text, kind: 'date' };
  if (y === null) return { fact, has: [`md:${md}`, `dy:${md}`, `day:${d}`], needs: [`md:${md}`] };
  return {
    fact,
    has: [`d:${y}-${md}`, `md:${md}`, `day:${d}`, numberKey(y)],
    needs: [`d:${y}-${md}`, `dy:${md}`],
  };
}

function timeKeys(text: string, h: number, min: number, ampm: string | null): Keys | null {
  const fact: Fact = { text, kind: 'time' };
  if (ampm !== null) {
    if (h < 1 || h > 12) return null;
    const pm = ampm.toLowerCase().startsWith('p');
    const key = `t:${two((h % 12) + (pm ? 12 : 0))}:${two(min)}`;
    return { fact, has: [key], needs: [key] };
  }
  // `3:30` may be morning or afternoon: either reading of the thread's or the draft's is a match.
  const keys = [`t:${two(h)}:${two(min)}`, ...(h >= 1 && h < 12 ? [`t:${two(h + 12)}:${two(min)}`] : [])];
  return { fact, has: keys, needs: keys };
}

function keysOf(match: RegExpExecArray): Keys | null {
  const g = match.groups ?? {};
  const text = match[0].trim();
  if (g.iso) return dateKeys(text, Number(g.isoY), Number(g.isoM), Number(g.isoD));
  if (g.slash) {
    const a = Number(g.sA);
    const b = Number(g.sB);
    const [m, d] = a > 12 ? [b, a] : [a, b];
    return dateKeys(text, g.sY ? fullYear(g.sY) : null, m, d);
  }
  if (g.md) return dateKeys(text, g.mdY ? Number(g.mdY) : null, monthOf(g.mdM ?? ''), Number(g.mdD));
  if (g.dm) return dateKeys(text, g.dmY ? Number(g.dmY) : null, monthOf(g.dmM ?? ''), Number(g.dmD));
  if (g.ampm) return timeKeys(text, Number(g.apH), Number(g.apM ?? 0), g.ap ?? null);
  if (g.clock) return timeKeys(text, Number(g.cH), Number(g.cM), null);
  if (g.word) {
    const key = g.w?.toLowerCase() === 'noon' ? 't:12:00' : 't:00:00';
    return { fact: { text, kind: 'time' }, has: [key], needs: [key] };
  }
  if (g.day) {
    const d = Number(g.dD);
    if (d < 1 || d > 31) return null;
    return { fact: { text, kind: 'date' }, has: [`day:${d}`], needs: [`day:${d}`] };
  }
  const value =
    Number(`${(g.int ?? '').replace(/,/g, '')}${g.frac ? `.${g.frac}` : ''}`) *
    (g.suf ? (suffixes[g.suf.toLowerCase()] ?? 1) : 1);
  const key = numberKey(value);
  return { fact: { text, kind: 'number' }, has: [key], needs: [key] };
}

function scan(text: string): Keys[] {
  const found: Keys[] = [];
  for (const match of text.matchAll(scanner)) {
    const keys = keysOf(match);
    if (keys) found.push(keys);
  }
  return found;
}

/** Every amount, number, date and time in the text, as written. */
export const factsOf = (text: string): Fact[] => scan(text).map((k) => k.fact);

/** What the thread's texts hold, as sorted normalised keys (sent to the composer with the draft). */
export function knownFacts(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => scan(t).flatMap((k) => k.has)))].sort();
}

/** Each fact of `text` that none of `known` (knownFacts of the thread) holds, once, in the order written. */
export function unverifiedFacts(text: string, known: readonly string[]): Unverified[] {
  const have = new Set(known);
  const seen = new Set<string>();
  const out: Unverified[] = [];
  for (const k of scan(text)) {
    if (k.needs.some((key) => have.has(key)) || seen.has(k.fact.text)) continue;
    seen.add(k.fact.text);
    out.push({ text: k.fact.text, reason: notInThread });
  }
  return out;
}

/**
 * The part of a reply's body the writer wrote: above the signature (`-- `) and the quote (`On …, X wrote:`
 * and its `>` lines), which hold the user's own details and the thread's own text.
 */
export function writtenPart(body: string): string {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const end = lines.findIndex(
    (line, i) =>
      line === '-- ' || line.startsWith('>') || (/wrote:\s*$/.test(line) && lines[i + 1]?.startsWith('>')),
  );
  return (end === -1 ? lines : lines.slice(0, end)).join('\n');
}
