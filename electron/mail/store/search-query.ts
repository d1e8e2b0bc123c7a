// What a mail search query says (DESIGN §11 "Search"): Gmail's operators, since that is what people type,
// beside words, "phrases", AND/OR/NOT, -word, prefix* and NEAR(…). Pure: text in, a tree or a
// SearchQueryError out; search-sql.ts turns the tree into SQL and search.ts runs it.
//
// Decisions taken here:
// - Precedence is Gmail's: NOT and `-` bind tightest, then OR, then AND (written or implied), so
//   `from:ana OR from:dan invoice` is (from:ana OR from:dan) AND invoice. FTS5 binds AND tighter; the tree
//   is translated with explicit brackets, so what FTS5 would have done never matters. `{a b}` is a OR b.
// - Syntax never fails a search: an unclosed quote or bracket closes at the end, a stray `)` and a dangling
//   OR/AND/NOT are dropped, and a word with no letter or digit in it (`@@`) matches nothing and is dropped.
// - What does fail, with a sentence naming it: an operator Skimmer does not know (`foo:bar`, `has:drive`),
//   a value it cannot read (`after:2026-13-01`, `older_than:7x`) and an operator with no value (`from:`).
//   Gmail would take `foo:bar` as words; an answer of zero messages for `is:unread` misled people instead.
//   A URL (`https://…`) is a word, not an operator.
// - Dates are days in the machine's local time zone, the one the app shows dates in: after:D matches from
//   the start of D on, before:D up to the start of D (Gmail's semantics). Durations count back from now on
//   the local calendar: 3m is three calendar months ago (the 31st becomes the month's last day).
// - A query's cost is bounded before it runs (red-team item 8): at most `maxQueryWords` words and
//   `maxPrefixTerms` prefixes, of which one may be a single letter or digit. FTS5 expands each prefix into
//   every word it begins, merging their lists in one step nothing can interrupt: a single letter is most of
//   the mail (`a*`: 145–175 ms at 100,000 messages, a two-letter one up to 60 ms), and `a* OR b* … z*` held
//   the read thread for seconds. What runs past the bounds is stopped by its deadline (search.ts `ReadCheck`).
// - A control character (a NUL, an escape) is refused with a sentence: FTS5 reads its strings up to a NUL, so
//   one inside a word was an internal "unterminated string" error.
import { DomainError } from '../../domain-error.ts';

export type SearchQueryErrorReason =
  | 'unknown_operator'
  | 'bad_value'
  | 'too_costly'
  | 'too_slow'
  | 'cancelled';

/**
 * `too_costly`: over the bounds above, before anything runs; `too_slow`: stopped at its deadline;
 * `cancelled`: replaced by a newer search from the same place (reads/read-thread.ts).
 */
export class SearchQueryError extends DomainError<SearchQueryErrorReason> {}

/** Words (each word of a phrase, NEAR's too) in one query. */
const maxQueryWords = 50;
/** Prefixes (`conf*`) in one query. */
const maxPrefixTerms = 6;
/** Prefixes of one letter or digit (`a*`), the costly kind, in one query. */
const maxShortPrefixes = 1;

export type TextField = 'subject' | 'from' | 'to' | 'cc' | 'body';
export type Place = 'inbox' | 'trash' | 'spam' | 'sent' | 'drafts' | 'archive' | 'anywhere';

export type SearchNode =
  | { kind: 'and'; items: SearchNode[] }
  | { kind: 'or'; items: SearchNode[] }
  | { kind: 'not'; item: SearchNode }
  /** Words as typed (several for a phrase), in one column or in any; `prefix`: the last one is a prefix. */
  | { kind: 'text'; field: TextField | null; text: string; prefix: boolean }
  | { kind: 'near'; phrases: string[]; distance: number | null }
  | { kind: 'is'; state: 'unread' | 'read' | 'starred' }
  | { kind: 'has'; what: 'attachment' }
  /** `since`: on or after `at` (epoch ms); `before`: before it. */
  | { kind: 'date'; bound: 'since' | 'before'; at: number }
  | { kind: 'label'; name: string }
  | { kind: 'place'; place: Place }
  | { kind: 'folder'; name: string };

export type ParseOptions = { now?: number };

const textFields: ReadonlySet<string> = new Set<TextField>(['subject', 'from', 'to', 'cc', 'body']);
const places: ReadonlySet<string> = new Set<Place>([
  'inbox',
  'trash',
  'spam',
  'sent',
  'drafts',
  'archive',
  'anywhere',
]);
const placeAliases: Record<string, Place> = { draft: 'drafts', junk: 'spam' };
const dateOperators = new Set(['after', 'before', 'newer', 'older']);
const durationOperators = new Set(['newer_than', 'older_than']);
const operators = new Set([
  ...textFields,
  ...dateOperators,
  ...durationOperators,
  'is',
  'has',
  'label',
  'in',
]);

/** The tree of a query; null when it holds nothing to search for (only punctuation, say). */
export function parseSearchQuery(text: string, options: ParseOptions = {}): SearchNode | null {
  refuseControl(text);
  const tree = new Parser(tokenize(text), options.now ?? Date.now()).query();
  if (tree) refuseCostly(tree);
  return tree;
}

// C0 controls but the whitespace ones (tab, line feed, vertical tab, form feed, return), DEL and C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const control = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

function refuseControl(text: string): void {
  const found = control.exec(text);
  if (!found) return;
  const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  // SECURITY: a NUL ends an FTS5 string early; refused here, it never reaches SQLite as syntax.
  throw new SearchQueryError(
    'bad_value',
    `A search cannot hold control characters; this one has U+${code} (character ${found.index + 1}). Type it again without it.`,
  );
}

// SECURITY: one request must not hold the read thread (or, for a selection, the main thread) for seconds;
// the bounds are counted on the tree, so brackets, braces and operators cannot hide a term.
function refuseCostly(tree: SearchNode): void {
  let count = 0;
  let prefixes = 0;
  let short = 0;
  const visit = (n: SearchNode): void => {
    switch (n.kind) {
      case 'and':
      case 'or':
        for (const i of n.items) visit(i);
        return;
      case 'not':
        visit(n.item);
        return;
      case 'near':
        for (const p of n.phrases) count += wordsOf(p).length;
        return;
      case 'text': {
        const words = wordsOf(n.text);
        count += words.length;
        if (!n.prefix) return;
        prefixes++;
        if ([...(words.at(-1) ?? '')].length < 2) short++;
        return;
      }
      default:
        return;
    }
  };
  visit(tree);
  // The most particular first: a query of many prefixes has many words too.
  if (prefixes > maxPrefixTerms) {
    throw new SearchQueryError(
      'too_costly',
      `That search has ${prefixes} words ending in *; Skimmer takes at most ${maxPrefixTerms} in one search, since each one searches for every word that starts with it.`,
    );
  }
  if (short > maxShortPrefixes) {
    throw new SearchQueryError(
      'too_costly',
      `That search has ${short} single letters or digits ending in * (such as a*); Skimmer takes at most ${maxShortPrefixes} in a search, since each matches most of the mail. Give the others a second letter.`,
    );
  }
  if (count > maxQueryWords) {
    throw new SearchQueryError(
      'too_costly',
      `That search has ${count} words; Skimmer searches for at most ${maxQueryWords} at once. Leave some out.`,
    );
  }
}

// The words FTS5 makes of a text (unicode61: runs of letters and digits).
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

type Token =
  | { t: 'open' | 'close' | 'brace_open' | 'brace_close' | 'or' | 'and' | 'not' }
  | { t: 'word'; text: string; prefix: boolean }
  | { t: 'near'; phrases: string[]; distance: number | null }
  /** `name:value`; a null value is `name:(…)` (the group follows as tokens) or a missing value. */
  | { t: 'op'; name: string; typed: string; value: string | null; prefix: boolean; group: boolean };

const delimiter = /[\s()"{}]/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  // A quoted string from the quote at i; unclosed, it runs to the end.
  const quoted = (): { text: string; prefix: boolean } => {
    const end = text.indexOf('"', i + 1);
    const body = text.slice(i + 1, end === -1 ? text.length : end);
    i = end === -1 ? text.length : end + 1;
    let prefix = false;
    while (text[i] === '*') {
      prefix = true;
      i++;
    }
    return { text: body, prefix };
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) i++;
    else if (c === '(' || c === ')' || c === '{' || c === '}') {
      tokens.push({ t: c === '(' ? 'open' : c === ')' ? 'close' : c === '{' ? 'brace_open' : 'brace_close' });
      i++;
    } else if (c === '-' && i + 1 < text.length && !/\s/.test(text[i + 1] as string)) {
      tokens.push({ t: 'not' });
      i++;
    } else if (c === '"') {
      tokens.push({ t: 'word', ...quoted() });
    } else {
      let end = i;
      while (end < text.length && !delimiter.test(text[end] as string)) end++;
      const run = text.slice(i, end);
      i = end;
      const op = /^([A-Za-z][A-Za-z_]*):(.*)$/s.exec(run);
      if (op && !op[2]?.startsWith('//')) {
        const name = (op[1] as string).toLowerCase();
        const rest = op[2] as string;
        if (rest !== '') tokens.push({ t: 'op', name, typed: run, value: rest, prefix: false, group: false });
        else if (text[i] === '"') {
          const q = quoted();
          tokens.push({
            t: 'op',
            name,
            typed: `${run}"${q.text}"`,
            value: q.text,
            prefix: q.prefix,
            group: false,
          });
        } else {
          tokens.push({ t: 'op', name, typed: run, value: null, prefix: false, group: text[i] === '(' });
        }
      } else if (run === 'OR' || run === 'AND' || run === 'NOT') {
        tokens.push({ t: run === 'OR' ? 'or' : run === 'AND' ? 'and' : 'not' });
      } else if (run === 'NEAR' && text[i] === '(') {
        const close = text.indexOf(')', i);
        tokens.push(near(text.slice(i + 1, close === -1 ? text.length : close)));
        i = close === -1 ? text.length : close + 1;
      } else {
        const word = run.replace(/\*+$/, '');
        tokens.push({ t: 'word', text: word, prefix: word.length < run.length });
      }
    }
  }
  return tokens;
}

// FTS5's NEAR(a "b c", N): phrases within N tokens of each other (10 when N is left out).
function near(inside: string): Token {
  const distance = /,\s*(\d{1,4})\s*$/.exec(inside);
  const list = distance ? inside.slice(0, distance.index) : inside;
  const phrases = [...list.matchAll(/"([^"]*)"?|[^\s",]+/g)].map((m) => m[1] ?? m[0]);
  return { t: 'near', phrases, distance: distance ? Number(distance[1]) : null };
}

const hasTokens = (text: string) => /[\p{L}\p{N}]/u.test(text);

function combine(kind: 'and' | 'or', items: SearchNode[]): SearchNode | null {
  const flat = items.flatMap((n) => (n.kind === kind ? n.items : [n]));
  if (flat.length <= 1) return flat[0] ?? null;
  return { kind, items: flat };
}

const negate = (n: SearchNode): SearchNode => (n.kind === 'not' ? n.item : { kind: 'not', item: n });

class Parser {
  private at = 0;
  private readonly tokens: Token[];
  private readonly now: number;
  constructor(tokens: Token[], now: number) {
    this.tokens = tokens;
    this.now = now;
  }

  query(): SearchNode | null {
    return this.all(null);
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  // Items joined by AND, up to `stop` (which is left for the caller) or the end.
  private all(stop: 'close' | 'brace_close' | null): SearchNode | null {
    const items: SearchNode[] = [];
    for (let tk = this.peek(); tk && tk.t !== stop; tk = this.peek()) {
      if (tk.t === 'close' || tk.t === 'brace_close' || tk.t === 'and' || tk.t === 'or') {
        this.at++; // a stray bracket, an AND (implied anyway) or an OR with nothing before it
        continue;
      }
      const item = this.anyOf();
      if (item) items.push(item);
    }
    return combine('and', items);
  }

  private anyOf(): SearchNode | null {
    const items: SearchNode[] = [];
    const first = this.unary();
    if (first) items.push(first);
    while (this.peek()?.t === 'or') {
      this.at++;
      const next = this.unary();
      if (next) items.push(next);
    }
    return combine('or', items);
  }

  private unary(): SearchNode | null {
    const tk = this.peek();
    if (!tk || ['close', 'brace_close', 'or', 'and'].includes(tk.t)) return null;
    if (tk.t === 'not') {
      this.at++;
      const inner = this.unary();
      return inner && negate(inner);
    }
    return this.primary();
  }

  private primary(): SearchNode | null {
    const tk = this.tokens[this.at++] as Token;
    switch (tk.t) {
      case 'open': {
        const inner = this.all('close');
        if (this.peek()?.t === 'close') this.at++;
        return inner;
      }
      case 'brace_open': {
        const items: SearchNode[] = [];
        for (let next = this.peek(); next && next.t !== 'brace_close'; next = this.peek()) {
          if (next.t === 'close' || next.t === 'and' || next.t === 'or') {
            this.at++; // a stray `)`, AND or OR inside the braces
            continue;
          }
          const item = this.unary();
          if (item) items.push(item);
        }
        if (this.peek()?.t === 'brace_close') this.at++;
        return combine('or', items);
      }
      case 'word':
        return textNode(null, tk.text, tk.prefix);
      case 'near': {
        const phrases = tk.phrases.filter(hasTokens);
        if (phrases.length === 0) return null;
        return { kind: 'near', phrases, distance: tk.distance };
      }
      case 'op': {
        if (!operators.has(tk.name)) throw unknownOperator(tk.name, tk.typed);
        if (!tk.group) return operatorNode(tk.name, tk.value, tk.prefix, this.now);
        const group = this.primary();
        return group && spread(tk.name, group, this.now);
      }
      default:
        return null; // not reached: unary() takes the other tokens
    }
  }
}

function textNode(field: TextField | null, text: string, prefix: boolean): SearchNode | null {
  return hasTokens(text) ? { kind: 'text', field, text, prefix } : null;
}

// `subject:(dinner OR movie)` is subject:dinner OR subject:movie (Gmail's grouping): the operator applies to
// every word and phrase of the group.
function spread(name: string, group: SearchNode, now: number): SearchNode | null {
  switch (group.kind) {
    case 'and':
    case 'or':
      return combine(
        group.kind,
        group.items.map((n) => spread(name, n, now)).filter((n) => n !== null),
      );
    case 'not': {
      const inner = spread(name, group.item, now);
      return inner && negate(inner);
    }
    case 'text':
      if (group.field === null) return operatorNode(name, group.text, group.prefix, now);
      break;
  }
  throw new SearchQueryError('bad_value', `${name}:(…) takes words and phrases only, without operators.`);
}

function operatorNode(name: string, value: string | null, prefix: boolean, now: number): SearchNode | null {
  if (value === null || value.trim() === '') {
    throw new SearchQueryError(
      'bad_value',
      `${name}: needs a value right after the colon, as in ${name}:${example[name] ?? 'word'}.`,
    );
  }
  if (textFields.has(name)) {
    const word = value.replace(/\*+$/, '');
    return textNode(name as TextField, word, prefix || word.length < value.length);
  }
  const lower = value.toLowerCase();
  if (dateOperators.has(name)) {
    return {
      kind: 'date',
      bound: name === 'after' || name === 'newer' ? 'since' : 'before',
      at: day(name, value),
    };
  }
  if (durationOperators.has(name)) {
    return { kind: 'date', bound: name === 'newer_than' ? 'since' : 'before', at: ago(name, value, now) };
  }
  switch (name) {
    case 'is':
      if (lower === 'unread' || lower === 'read' || lower === 'starred') return { kind: 'is', state: lower };
      throw unknownValue(name, value, 'unread, read or starred');
    case 'has':
      if (lower === 'attachment') return { kind: 'has', what: 'attachment' };
      throw unknownValue(name, value, 'attachment');
    case 'label':
      return { kind: 'label', name: value.trim() };
    default: {
      // in:
      const place = placeAliases[lower] ?? lower;
      return places.has(place)
        ? { kind: 'place', place: place as Place }
        : { kind: 'folder', name: value.trim() };
    }
  }
}

const example: Record<string, string> = {
  from: 'ana or from:"Ana Müller"',
  to: 'bob',
  cc: 'carol',
  subject: 'invoice',
  body: 'invoice',
  is: 'unread',
  has: 'attachment',
  after: '2026-01-31',
  before: '2026-01-31',
  newer: '2026-01-31',
  older: '2026-01-31',
  newer_than: '7d',
  older_than: '7d',
  label: '"Project X"',
  in: 'inbox',
};

function unknownOperator(name: string, typed: string): SearchQueryError {
  return new SearchQueryError(
    'unknown_operator',
    `Skimmer does not know the search operator ${name}: (in ${typed}). To search for the text, put it in quotes: "${typed.replace(/"/g, '')}".`,
  );
}

function unknownValue(name: string, value: string, takes: string): SearchQueryError {
  return new SearchQueryError(
    'unknown_operator',
    `Skimmer does not know the search operator ${name}:${value}; ${name}: takes ${takes}.`,
  );
}

/** The start of a local calendar day written YYYY-MM-DD or YYYY/MM/DD (one-digit month and day allowed). */
function day(name: string, value: string): number {
  const m = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/.exec(value);
  const [y, mo, d] = m ? [Number(m[1]), Number(m[3]), Number(m[4])] : [0, 0, 0];
  if (!m || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo - 1)) {
    throw new SearchQueryError(
      'bad_value',
      `${name}: takes a date written YYYY-MM-DD or YYYY/MM/DD, such as 2026-01-31; "${value}" is not one.`,
    );
  }
  return new Date(y, mo - 1, d).getTime();
}

const daysIn = (year: number, month: number) => new Date(year, month + 1, 0).getDate();

/** `now` moved back on the local calendar by a duration such as 7d, 2w, 3m or 1y. */
function ago(name: string, value: string, now: number): number {
  const m = /^(\d{1,4})([dwmy])$/i.exec(value);
  if (!m) {
    throw new SearchQueryError(
      'bad_value',
      `${name}: takes a number and d, w, m or y (days, weeks, months, years), such as 7d, 2w, 3m or 1y; "${value}" is not one.`,
    );
  }
  const n = Number(m[1]);
  const unit = (m[2] as string).toLowerCase();
  const t = new Date(now);
  if (unit === 'd' || unit === 'w') {
    t.setDate(t.getDate() - n * (unit === 'w' ? 7 : 1));
    return t.getTime();
  }
  const months = t.getFullYear() * 12 + t.getMonth() - n * (unit === 'y' ? 12 : 1);
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  t.setFullYear(year, month, Math.min(t.getDate(), daysIn(year, month)));
  return t.getTime();
}
