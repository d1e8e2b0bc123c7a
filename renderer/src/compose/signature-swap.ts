// The signature follows the From (DESIGN §12, "The composer"): choosing another of your addresses swaps the
// old address's signature block for the new one's, as Gmail does, but only while the block stands in the body
// as it was put there; a signature the user has edited is theirs and stays. Pure; tested in
// signature-swap.test.ts.
import { signatureBlock } from '../../../shared/compose/composition.ts';
import { forwardedLine } from '../../../shared/compose/forward.ts';

/** The body with `before`'s signature block replaced by `after`'s (inserted, when there was none). */
export function swapSignature(body: string, before: string | null, after: string | null): string {
  const old = signatureBlock(before);
  const next = signatureBlock(after);
  if (old === next) return body;
  if (old !== '') {
    const at = body.indexOf(old);
    return at === -1 ? body : body.slice(0, at) + next + body.slice(at + old.length);
  }
  // No block before: the new one goes where reply.ts and forward.ts put it, above the quote or the
  // forwarded message, or at the end of a new mail.
  const at = quoteStart(body);
  if (at !== -1) return body.slice(0, at) + next + body.slice(at);
  const text = body.replace(/\s+$/, '');
  return `${text}\n\n${next}`;
}

// Where the quoted original begins: the `… wrote:` line above `>` lines (quote.ts), or the forwarded
// message's first line (forward.ts); -1 when there is neither.
function quoteStart(body: string): number {
  const lines = body.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1] ?? '';
    if (line === forwardedLine || (line.endsWith(' wrote:') && next.startsWith('>'))) return offset;
    offset += line.length + 1;
  }
  return -1;
}
