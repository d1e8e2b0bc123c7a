// The header fields the warnings read that parse.ts stores nothing of: every Authentication-Results (topmost
// first, as the receiving servers stacked them) and Reply-To (DESIGN §11, "Warnings"). Read from the raw header
// block at import and sync time; the fields themselves are not kept, only the warnings made from them.
import { parseAddressList } from '../../../shared/mail-address.ts';

export type TrustHeaders = {
  /** Authentication-Results values, topmost first, folding undone. */
  authenticationResults: string[];
  /** The Reply-To addresses, lower-cased; empty when there is none. */
  replyTo: string[];
};

// Bounds: a hostile message may repeat a field thousands of times or make one huge.
const maxHeaderBytes = 256 * 1024;
const maxFields = 20;
const maxFieldChars = 8 * 1024;

/** The header block of a raw message: everything before the first empty line. */
function headerBlock(raw: Buffer): string {
  const head = raw.subarray(0, maxHeaderBytes);
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : head.length;
  // UTF-8: RFC 6532 allows it in header values, and ASCII reads the same.
  return head.subarray(0, end).toString('utf8');
}

export function readTrustHeaders(raw: Buffer): TrustHeaders {
  const authenticationResults: string[] = [];
  let replyTo: string[] = [];
  for (const field of headerBlock(raw).split(/\r?\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = () =>
      field
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim()
        .slice(0, maxFieldChars);
    if (name === 'authentication-results' && authenticationResults.length < maxFields) {
      authenticationResults.push(value());
    } else if (name === 'reply-to' && replyTo.length === 0) {
      replyTo = parseAddressList(value())
        .slice(0, maxFields)
        .map((a) => a.address.toLowerCase());
    }
  }
  return { authenticationResults, replyTo };
}
