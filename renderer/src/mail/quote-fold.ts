// Where a message quotes the mail it answers, so the reader can fold that behind "…" as Gmail does (DESIGN
// §12, "Long threads"). Plain text: runs of `>` lines, with the "On DATE, NAME wrote:" line that introduces
// them. HTML: Gmail's div.gmail_quote, Apple Mail's and Thunderbird's blockquote type="cite", Yahoo's
// div.yahoo_quoted and the plain blockquote of other clients, with Thunderbird's div.moz-cite-prefix or an
// "…wrote:" block before them. Outlook quotes without marking the lines: everything from its header of the
// answered mail to the end is the quote (a tail), in plain text from "-----Original Message-----" or from a
// rule of underscores followed by "From:", in HTML from div#divRplyFwdMsg or that line. Only detection lives here (pure, tested in quote-fold.test.ts); the reader's
// PlainBody and the mail frame (fold-html-quotes.ts) do the folding.
//
// Never the whole message: when nothing of the message's own would be left outside the folds (a forward of
// a quote, a message that is all `>`), nothing is folded, since a message showing only "…" reads as empty.
// A single quoted line with no attribution is left in place: an answer written between the lines it quotes
// needs those lines to make sense.

export type TextSegment = { kind: 'text' | 'quote'; text: string; start: number };

const quoteLine = /^[ \t]*>/;
// The end of an attribution line in the languages mail clients write it in.
// The verb may end the line ("Dana wrote:") or come before the name ("Am …, schrieb Dana <d@x>:").
const attributionEnd =
  /(?:^|[\s,])(?:wrote|writes|schrieb|a écrit|escribió|escreveu|scrisse|schreef|skrev|kirjoitti|napisał|написал\(а\)|написал)(?:\s[^\n]{0,200})?\s*:\s*$/iu;
const attributionStart = /^[ \t]*(?:On|Am|Le|El|Em|Il|Op|Den|W dniu|\d)/u;

export function isQuoteLine(line: string): boolean {
  return quoteLine.test(line);
}

/** An "On DATE, NAME wrote:" line (possibly wrapped over two lines) right before a quote. */
export function isAttributionText(text: string): boolean {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 0 && flat.length <= 300 && attributionEnd.test(flat);
}

const blank = (line: string | undefined) => line !== undefined && line.trim() === '';

// The next line that is not blank after `index`, or -1.
function nextFilled(lines: readonly string[], index: number): number {
  let i = index + 1;
  while (i < lines.length && blank(lines[i])) i++;
  return i < lines.length ? i : -1;
}

/** Whether lines[index] is (part of) an attribution introducing the quote that follows it. */
export function isAttribution(lines: readonly string[], index: number): boolean {
  const line = lines[index] ?? '';
  if (isQuoteLine(line) || blank(line)) return false;
  const next = nextFilled(lines, index);
  if (next === -1) return false;
  if (isQuoteLine(lines[next] ?? '')) return isAttributionText(line) || isWrappedTail(lines, index);
  // The first half of "On Mon, 30 Nov 2026, Dana Smith <dana@example.com>" / "wrote:" wrapped in two.
  const after = nextFilled(lines, next);
  return next === index + 1 && after !== -1 && isQuoteLine(lines[after] ?? '') && isWrappedTail(lines, next);
}

// lines[index] ends a two-line attribution whose first half is the line before.
function isWrappedTail(lines: readonly string[], index: number): boolean {
  const before = lines[index - 1];
  return (
    before !== undefined &&
    !blank(before) &&
    !isQuoteLine(before) &&
    attributionStart.test(before) &&
    isAttributionText(`${before} ${lines[index]}`)
  );
}

/**
 * The text cut into what shows and what folds; the segments' texts joined give the text back exactly.
 * `start` is each segment's offset in the text.
 */
export function foldPlainText(text: string): TextSegment[] {
  // Lines with their endings, so offsets and the joined text stay exact.
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const bare = lines.map((line) => line.replace(/\r?\n$/, ''));
  const folded: boolean[] = bare.map(() => false);
  let i = 0;
  while (i < bare.length) {
    if (!isQuoteLine(bare[i] ?? '')) {
      i++;
      continue;
    }
    // A run of quote lines; blank lines inside it belong to it when another quote line follows.
    const first = i;
    let last = i;
    let j = i + 1;
    while (j < bare.length) {
      if (isQuoteLine(bare[j] ?? '')) last = j;
      else if (!blank(bare[j])) break;
      j++;
    }
    let from = first;
    // The attribution before it (one line or two), with the blank lines between.
    let k = first - 1;
    while (k >= 0 && blank(bare[k])) k--;
    if (k >= 0 && isAttribution(bare, k)) {
      from = k;
      if (k - 1 >= 0 && isWrappedTail(bare, k)) from = k - 1;
    }
    const quoted = last - first + 1;
    if (quoted >= 2 || from < first) for (let n = from; n <= last; n++) folded[n] = true;
    i = last + 1;
  }
  const tail = outlookTailStart(bare);
  if (tail !== -1) for (let n = tail; n < bare.length; n++) folded[n] = true;
  // Never the whole message.
  const ownText = bare.some((line, n) => !folded[n] && line.trim() !== '');
  if (!ownText) return text === '' ? [] : [{ kind: 'text', text, start: 0 }];
  const segments: TextSegment[] = [];
  let offset = 0;
  lines.forEach((line, n) => {
    const kind = folded[n] ? 'quote' : 'text';
    const previous = segments[segments.length - 1];
    if (previous && previous.kind === kind) previous.text += line;
    else segments.push({ kind, text: line, start: offset });
    offset += line.length;
  });
  return segments;
}

// Outlook's separators, in the languages it writes them in. A "Forwarded message" line is not one: a
// forward's content is what the message is for.
const originalMessage =
  /^[ \t]*-{2,}[ \t]*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|Oorspronkelijk bericht|Mensagem original|Ursprungligt meddelande)[ \t]*-{2,}[ \t]*$/iu;
const underscoreRule = /^[ \t]*_{10,}[ \t]*$/;
const headerFrom = /^[ \t]*(?:From|Von|De|Da|Van|Från)[ \t]*:/u;

/** Whether the text is Outlook's "-----Original Message-----" line. */
export function isOriginalMessageLine(text: string): boolean {
  return originalMessage.test(text.trim());
}

// The line where Outlook's quoted tail starts, or -1: "-----Original Message-----", or a rule of underscores
// whose next filled line is a "From:" header.
function outlookTailStart(lines: readonly string[]): number {
  return lines.findIndex((line, n) => {
    if (isOriginalMessageLine(line)) return true;
    if (!underscoreRule.test(line)) return false;
    const next = nextFilled(lines, n);
    return next !== -1 && headerFrom.test(lines[next] ?? '');
  });
}

/** What an HTML element is, as far as folding goes: enough of it to decide without a DOM. */
export type ElementShape = {
  tag: string;
  classes: readonly string[];
  type: string | null;
  id?: string | null;
};

/**
 * Whether the element starts Outlook's quoted tail: its header block of the answered mail (div#divRplyFwdMsg;
 * the sanitizer prefixes ids with "user-content-") or an element holding only "-----Original Message-----".
 */
export function isTailQuoteStart(element: ElementShape, text: string): boolean {
  const id = (element.id ?? '').replace(/^user-content-/, '');
  if (id === 'divRplyFwdMsg') return true;
  return ['div', 'p', 'span'].includes(element.tag.toLowerCase()) && isOriginalMessageLine(text);
}

/** Whether the element holds the quoted mail of a reply, in the form one of the mail clients writes it. */
export function isQuoteContainer(element: ElementShape): boolean {
  const tag = element.tag.toLowerCase();
  if (tag === 'blockquote') return true; // Apple Mail and Thunderbird add type="cite"; others write it bare
  if (tag !== 'div') return false;
  return element.classes.includes('gmail_quote') || element.classes.includes('yahoo_quoted');
}

/** Whether the element right before a quote introduces it ("On …, … wrote:", Thunderbird's cite prefix). */
export function isAttributionElement(element: ElementShape, text: string): boolean {
  if (element.classes.includes('moz-cite-prefix') || element.classes.includes('gmail_attr')) return true;
  return isAttributionText(text);
}

/** Fold only when the message keeps some text of its own outside the folds. */
export function keepsOwnText(bodyText: string, foldedTexts: readonly string[]): boolean {
  const strip = (value: string) => value.replace(/\s+/g, '');
  const folded = foldedTexts.reduce((sum, part) => sum + strip(part).length, 0);
  return strip(bodyText).length > folded;
}
