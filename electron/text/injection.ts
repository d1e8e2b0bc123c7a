// Phrases that try to instruct a model, in mail or documents: a hint for the UI and the warnings, never a
// defence (the defences are the gates and approvals with provenance, DESIGN §7). Pure.
import { hidesCharacters, invisibleRun, stripHiddenText } from './hidden-characters.ts';
import { type InjectionReason, injectionPhrases } from './injection-phrases.ts';
import { foldLatinLookalikes } from './latin-lookalikes.ts';

function splitLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029\u0085]/);
}

function normaliseLine(line: string): string {
  return line
    .normalize('NFKC')
    .replace(invisibleRun, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02BC\u2032]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

type Finding = { reason: InjectionReason; firstLine: number; lastLine: number; index: number };

function findInjections(text: string): Finding[] {
  const lines = splitLines(text).map(normaliseLine);
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const lineAt = (index: number): number => {
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] ?? Number.POSITIVE_INFINITY) <= index) line += 1;
    return line;
  };
  const joined = lines.join('\n');
  // Positions in the folded text are those in the joined one (one unit for one).
  const folded = foldLatinLookalikes(joined);
  const findings: Finding[] = [];
  for (const { reason, pattern } of injectionPhrases) {
    for (const variant of joined === folded ? [joined] : [joined, folded]) {
      pattern.lastIndex = 0;
      const match = pattern.exec(variant);
      if (!match) continue;
      const end = match.index + Math.max(match[0].trimEnd().length - 1, 0);
      findings.push({ reason, index: match.index, firstLine: lineAt(match.index), lastLine: lineAt(end) });
      break;
    }
  }
  if (hidesCharacters(text)) {
    // Only the first line may start with a harmless byte-order mark.
    const at = Math.max(
      splitLines(text).findIndex((line, i) => hidesCharacters(i === 0 ? line : `.${line}`)),
      0,
    );
    findings.push({ reason: 'hidden-characters', index: starts[at] ?? 0, firstLine: at, lastLine: at });
  }
  return findings.sort((a, b) => a.index - b.index);
}

export function suspectInjection(text: string): { suspect: boolean; reasons: string[] } {
  const reasons = [...new Set(findInjections(text).map((finding) => finding.reason))];
  return { suspect: reasons.length > 0, reasons };
}

const QUOTE_LIMIT = 200;

/** The first flagged line (or lines, when a phrase wraps), as plain text for the UI; null when none. */
export function injectionQuote(text: string): string | null {
  const first = findInjections(text)[0];
  if (!first) return null;
  const quoted = splitLines(text)
    .slice(first.firstLine, first.lastLine + 1)
    .map((line) => stripHiddenText(line).text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const codePoints = Array.from(quoted);
  if (codePoints.length <= QUOTE_LIMIT) return quoted;
  return `${codePoints.slice(0, QUOTE_LIMIT - 1).join('')}…`;
}
