// The amounts, numbers, dates, times and codes of a drafted reply, checked against the messages it cites (issue 17,
// DESIGN §10 "Drafted replies"): each is read into normalised keys (`40,000`, `40000`, `40k`, `$40,000` and
// `forty thousand` are all `n:40000`; `Dec 14`, `14 December` and `12/14` are `md:12-14`; `3pm` and `15:00` are
// `t:15:00`; `DE89 3704 …` and `DE893704…` are one `c:` key) and one the messages do not hold is "not found in
// the messages cited". Main checks the model's draft sentence by sentence against the messages each cites
// (ai/grounded/draft-reply.ts); the composer runs the same check on the text as the user edits it, against the
// keys main sent. Pure.
//
// What is read: ISO dates (2026-12-14), numeric dates (12/14, 14/12/2026: month first unless the first part
// is over 12, as US mail writes them), a month's name with a day and an optional year (Dec 14, 14th of
// December 2026), a bare ordinal day (the 14th), times (3pm, 3:30 p.m., 15:00, noon), numbers with a
// currency sign or code (`EUR97531`, `USD 500`), thousands commas, decimals, a k/m/bn or thousand/million/billion
// suffix and a percent sign, English numbers in words with a tens or scale word or a currency after them
// (`twelve thousand euros`, `five hundred`, `forty-five`, `ten dollars`: not `one` or `two weeks`), IBANs (their
// check digits verified, spaced or not) and codes of letters and at least three digits (`INV-97531`). Digits of
// any script count as theirs (full-width `１２`, Arabic-Indic `١٢`), as do full-width signs. Weekdays and words
// like "tomorrow" are not read: they name no number the thread could hold; nor are short ids (`m12`, `v2`, `3D`).

export type Fact = { text: string; kind: 'number' | 'date' | 'time' | 'code' };
export type Unverified = { text: string; reason: string };

/** The reason every unverified fact carries, as the composer shows it. */
export const notCited = 'not found in the messages cited';

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

const units = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const tens = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const scales: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const numberWord = `(?:${[...units, ...tens, 'hundred', ...Object.keys(scales)].join('|')})`;
// Currency codes written against the digits (`EUR97531`) or before them (`USD 500`).
const currencyCode = 'EUR|USD|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|INR|CNY|HKD|SGD|ZAR|BRL|MXN';
const currencyAfter = /^\s+(?:euros?|dollars?|pounds?|francs?|yen|rupees?|percent|per\s+cent)\b/i;

// One scan, the alternatives tried in this order at each place, so `Dec 14` is a date and not the number 14,
// and `15:00` a time. `(?<![\w.])` keeps a digit inside a word or an id (`m12`, `v2.1`) from being read as a
// number; a word of letters and three digits or more is read whole as a code (`INV97531`), a currency code and
// digits as the amount (`EUR97531`).
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
    String.raw`(?<spelled>\b(?:a\s+(?=(?:hundred|thousand|million|billion)\b))?${numberWord}(?:(?:\s+and\s+|[\s-]+)${numberWord})*\b)`,
    String.raw`(?<num>(?:(?<![a-z])(?:${currencyCode})\s?(?=\d)|(?:[$€£¥]\s?)?(?<![\w.]))(?<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?<frac>\d+))?(?:\s?(?<suf>k|m|bn|thousand|million|billion)(?![a-z]))?(?<pct>\s?%)?(?![a-z\d]))`,
    String.raw`(?<code>(?<![\w-])(?=[a-z\d-]*[a-z])(?=(?:[a-z-]*\d){3})[a-z\d]+(?:-[a-z\d]+)*(?![\w-]))`,
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

// An English number in words, or null when it is not one (`five twenty`) or reads as prose rather than an
// amount: a lone unit (`one of us`, `two weeks`) unless a currency follows (`ten euros`).
function spelledValue(words: string, currency: boolean): number | null {
  const list = words
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => w !== 'and');
  if (list[0] === 'a') list[0] = 'one';
  let total = 0;
  let current = 0;
  let last: 'none' | 'unit' | 'tens' | 'hundred' | 'scale' = 'none';
  let amount = currency;
  for (const w of list) {
    const unit = units.indexOf(w);
    const ten = tens.indexOf(w);
    if (unit >= 0) {
      if (last === 'unit' || (last === 'tens' && (unit === 0 || unit >= 10))) return null;
      current += unit;
      last = 'unit';
    } else if (ten >= 0) {
      if (last === 'unit' || last === 'tens') return null;
      current += (ten + 2) * 10;
      last = 'tens';
      amount = true;
    } else if (w === 'hundred') {
      if (current === 0 || current >= 100) return null;
      current *= 100;
      last = 'hundred';
      amount = true;
    } else {
      const scale = scales[w];
      if (scale === undefined || current === 0) return null;
      total += current * scale;
      current = 0;
      last = 'scale';
      amount = true;
    }
  }
  return amount ? total + current : null;
}

// An IBAN (ISO 13616): two letters, two check digits, up to 30 letters and digits, in groups of four or not; one
// whose check digits are right (mod 97), so a word and a number beside it are not taken for one.
const ibanShape = /(?<![\w-])[A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){2,7}(?: ?[A-Z\d]{1,3})?(?![\w-])/gi;
function isIban(compact: string): boolean {
  if (compact.length < 15 || compact.length > 34 || (compact.match(/\d/g) ?? []).length < 10) return false;
  const moved = `${compact.slice(4)}${compact.slice(0, 4)}`;
  let rest = 0;
  for (const ch of moved) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

function codeKeys(text: string, iban = false): Keys {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  // Letters then digits (`INV-97531`): the number alone is the same reference (`invoice 97531`). Not an IBAN's,
  // whose account number without its country and check digits is no longer the account.
  const number = iban ? undefined : /^[A-Z]+(\d{1,12})$/.exec(compact)?.[1];
  const keys = [`c:${compact}`, ...(number === undefined ? [] : [numberKey(Number(number))])];
  return { fact: { text, kind: 'code' }, has: keys, needs: keys };
}

function keysOf(match: RegExpExecArray, text: string): Keys | null {
  const g = match.groups ?? {};
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
  if (g.spelled) {
    const after = match.input.slice(match.index + match[0].length);
    const value = spelledValue(g.spelled, currencyAfter.test(after));
    if (value === null) return null;
    const key = numberKey(value);
    return { fact: { text, kind: 'number' }, has: [key], needs: [key] };
  }
  if (g.code) return codeKeys(text);
  const value =
    Number(`${(g.int ?? '').replace(/,/g, '')}${g.frac ? `.${g.frac}` : ''}`) *
    (g.suf ? (suffixes[g.suf.toLowerCase()] ?? 1) : 1);
  const key = numberKey(value);
  return { fact: { text, kind: 'number' }, has: [key], needs: [key] };
}

// The digit value of a character of Unicode's Nd (decimal digits): every script's digits are a run of ten from
// its zero, so the value is the place in the run.
const decimal = /\p{Nd}/u;
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0) as number;
  let start = cp;
  while (start > 0 && decimal.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** A character as the scanner reads it: a digit of any script as ASCII, a full-width form (NFKC) as its ASCII. */
function asAscii(ch: string): string {
  if (ch < '\x80') return ch;
  if (decimal.test(ch)) return String(digitValue(ch));
  if (ch === '\u066b') return '.'; // Arabic decimal separator
  if (ch === '\u066c') return ','; // Arabic thousands separator
  const compatible = ch.normalize('NFKC');
  return compatible.length === 1 && compatible < '\x80' ? compatible : ch;
}

/**
 * The text as the scanner reads it (asAscii, one character for each character of the text) and where each of
 * its characters is in the text, so a fact is shown as written (`１２，０００`) and keyed as read (`n:12000`).
 */
function normalised(text: string): { read: string; at: number[] } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is what needs no reading
  if (/^[\x00-\x7f]*$/.test(text)) return { read: text, at: [] };
  let read = '';
  const at: number[] = [];
  let i = 0;
  for (const ch of text) {
    read += asAscii(ch);
    at.push(i);
    i += ch.length;
  }
  at.push(i);
  return { read, at };
}

function scan(text: string): Keys[] {
  const { read, at } = normalised(text);
  const written = (start: number, end: number) =>
    (at.length === 0 ? text.slice(start, end) : text.slice(at[start], at[end])).trim();
  const found: { index: number; keys: Keys }[] = [];
  // IBANs first, so their groups of digits are not read as numbers.
  const taken: [number, number][] = [];
  for (const m of read.matchAll(ibanShape)) {
    if (!isIban(m[0].replace(/ /g, '').toUpperCase())) continue;
    taken.push([m.index, m.index + m[0].length]);
    found.push({ index: m.index, keys: codeKeys(written(m.index, m.index + m[0].length), true) });
  }
  for (const match of read.matchAll(scanner)) {
    const end = match.index + match[0].length;
    if (taken.some(([s, e]) => match.index < e && end > s)) continue;
    const keys = keysOf(match, written(match.index, end));
    if (keys) found.push({ index: match.index, keys });
  }
  return found.sort((a, b) => a.index - b.index).map((f) => f.keys);
}

/** Every amount, number, date and time in the text, as written. */
export const factsOf = (text: string): Fact[] => scan(text).map((k) => k.fact);

/** What the thread's texts hold, as sorted normalised keys (sent to the composer with the draft). */
export function knownFacts(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => scan(t).flatMap((k) => k.has)))].sort();
}

/**
 * Each fact of `text` that none of `known` (knownFacts of the messages cited) holds, in the order written, with
 * the keys any one of which would have found it (a caller that keeps `known` for later checks takes them out).
 */
export function missingFacts(text: string, known: readonly string[]): { fact: Fact; needs: string[] }[] {
  const have = new Set(known);
  return scan(text)
    .filter((k) => !k.needs.some((key) => have.has(key)))
    .map((k) => ({ fact: k.fact, needs: k.needs }));
}

/** Each fact of `text` that none of `known` holds, once, in the order written. */
export function unverifiedFacts(text: string, known: readonly string[]): Unverified[] {
  const seen = new Set<string>();
  const out: Unverified[] = [];
  for (const { fact } of missingFacts(text, known)) {
    if (seen.has(fact.text)) continue;
    seen.add(fact.text);
    out.push({ text: fact.text, reason: notCited });
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
