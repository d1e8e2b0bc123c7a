// Reading the Authentication-Results header field (RFC 8601) that the receiving server added, for the
// `authentication` warning (DESIGN §11, "Warnings"). mailauth 7.1.0 was looked at: it checks SPF, DKIM and
// DMARC itself (DNS lookups Skimmer does not want at import) and reads these headers only with an internal
// helper (lib/parse-dkim-headers.js, no public export) that keeps one result per method but DKIM and does not
// handle nested comments; this is the small parser of RFC 8601 §2.2 instead. Pure; tests replay real headers
// from fixtures/auth-results/.
import { registrable } from './lookalike.ts';

type AuthResult = {
  /** The method, lower-cased, without its version: `spf`, `dkim`, `dmarc`, `arc`, `compauth`, … */
  method: string;
  /** The result, lower-cased: `pass`, `fail`, `softfail`, `none`, `neutral`, `temperror`, `permerror`, … */
  result: string;
  /** The properties (`header.from`, `smtp.mailfrom`, `header.d`, …), keys lower-cased, and `reason`. */
  props: Record<string, string>;
};

export type AuthResults = {
  /** Who added the header; null when the header starts with a result (Microsoft 365 writes it so). */
  authservId: string | null;
  results: AuthResult[];
};

// SECURITY: what a sender chose is copied into the field: the envelope sender into a comment
// (`spf=pass (domain of "a(b"@x designates …)`, Gmail) and into `smtp.mailfrom`, unescaped. So quoted strings
// are whole inside comments too (RFC 5322 reads `"` there as text, and a `(` in a quoted local part would open
// a comment that swallows the rest of the field), and a quote or a parenthesis that never closes is read as a
// plain character rather than hiding what follows it.

/** Where each quoted string that closes ends (the index after its closing quote), by its opening index. */
function quotedStrings(value: string): Map<number, number> {
  const ends = new Map<number, number>();
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\') i++;
    else if (value[i] === '"') {
      let j = i + 1;
      while (j < value.length && value[j] !== '"') j += value[j] === '\\' ? 2 : 1;
      // Unclosed: no quote follows, so none opens again.
      if (j >= value.length) break;
      ends.set(i, j + 1);
      i = j;
    }
  }
  return ends;
}

/** Where each comment that closes ends (the index after its `)`), by its opening index; nested ones too. */
function comments(value: string, quoted: Map<number, number>): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\') i++;
    else if (quoted.has(i)) i = (quoted.get(i) ?? i + 1) - 1;
    else if (c === '(') open.push(i);
    else if (c === ')') {
      const start = open.pop();
      if (start !== undefined) ends.set(start, i + 1);
    }
  }
  return ends;
}

/** The field's `;`-separated parts, comments taken out, quoted strings kept whole, folding undone. */
function segments(value: string): string[] {
  const quoted = quotedStrings(value);
  const comment = comments(value, quoted);
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; ) {
    const c = value[i] ?? '';
    const quoteEnd = quoted.get(i);
    const commentEnd = comment.get(i);
    if (quoteEnd !== undefined) {
      current += value.slice(i, quoteEnd);
      i = quoteEnd;
    } else if (commentEnd !== undefined) {
      current += ' ';
      i = commentEnd;
    } else {
      if (c === ';') {
        parts.push(current);
        current = '';
      } else current += c;
      i++;
    }
  }
  parts.push(current);
  return parts.map((p) => p.replace(/[\r\n]+[ \t]*/g, ' ').trim());
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1) : v);

// `method[/version] = result`, then `reason = value` and `ptype.property = value`, any CFWS around `=`, `.`, `/`.
const methodSpec = /^([a-z0-9][a-z0-9_-]*)\s*(?:\/\s*\d+\s*)?=\s*([a-z0-9_-]+)/i;
// A value is a quoted string, with a domain after it when it is a quoted local part (`"a(b"@x`), or anything
// up to a space (a quote in it that never closed is a plain character by then).
const propSpec = /^([a-z0-9_-]+(?:\s*\.\s*[a-z0-9_.-]+)?)\s*=\s*("(?:[^"\\]|\\.)*"(?:@[^\s"]*)?|[^\s]*)/i;

function resultOf(segment: string): AuthResult | null {
  const head = methodSpec.exec(segment);
  if (!head) return null;
  const props: Record<string, string> = {};
  let rest = segment.slice(head[0].length).trim();
  while (rest.length > 0) {
    const prop = propSpec.exec(rest);
    if (!prop) {
      // A stray word (a vendor's free text): skip it and read on.
      rest = rest.replace(/^\S+\s*/, '');
      continue;
    }
    const key = (prop[1] ?? '').replace(/\s+/g, '').toLowerCase();
    if (!(key in props)) props[key] = unquote(prop[2] ?? '');
    rest = rest.slice(prop[0].length).trim();
  }
  return { method: (head[1] ?? '').toLowerCase(), result: (head[2] ?? '').toLowerCase(), props };
}

/** One Authentication-Results field value (without the field name), as RFC 8601 §2.2 reads it. */
export function parseAuthResults(value: string): AuthResults {
  const [first = '', ...rest] = segments(value);
  // Microsoft 365 leaves the authserv-id out and starts with the first result.
  const startsWithResult = methodSpec.test(first) && !/^\S+\s+\d+$/.test(first);
  const authservId = startsWithResult ? null : (first.split(/\s+/)[0] ?? '') || null;
  const results: AuthResult[] = [];
  for (const segment of startsWithResult ? [first, ...rest] : rest) {
    if (/^none$/i.test(segment)) continue; // RFC 8601 "no-result"
    const result = resultOf(segment);
    if (result) results.push(result);
  }
  return { authservId, results };
}

export type AuthFailure = { method: 'spf' | 'dkim' | 'dmarc'; domain: string | null };

/** Every result that starts after a `;` of the field, whatever the quotes and comments around it. */
function resultsAnywhere(value: string): AuthResult[] {
  return value.split(';').flatMap((piece) => {
    const result = resultOf(segments(piece)[0] ?? '');
    return result ? [result] : [];
  });
}

/**
 * What the receiving server says failed. `fields` are the message's Authentication-Results values, topmost
 * first; `fromDomain` is the domain of the message's From. The topmost field is your own server's (RFC 8601
 * §5: a server removes fields with its own authserv-id from incoming mail and adds its own above the rest);
 * a server that writes one field per check (Postfix with OpenDKIM and OpenDMARC) writes them all with its
 * id, so every field with the topmost one's id is read. A field forged lower down with that id can only add a
 * failure, never hide one: a passing DKIM signature excuses a failing one only inside the same field (a list
 * that re-signs what it forwards), and only when it is the From domain's.
 */
export function authFailures(fields: readonly string[], fromDomain: string | null): AuthFailure[] {
  const [top, ...others] = fields.map((value) => {
    let anywhere: AuthResult[] | undefined;
    return { ...parseAuthResults(value), anywhere: () => (anywhere ??= resultsAnywhere(value)) };
  });
  if (!top) return [];
  const id = top.authservId?.toLowerCase();
  const own = id === undefined ? [top] : [top, ...others.filter((f) => f.authservId?.toLowerCase() === id)];
  // SECURITY: a failure counts wherever a `;` starts it, even where a quote or a comment seems to hold it: a
  // sender who gets one past the receiving server unbalanced can then only add failures to its own mail.
  const fails = (f: (typeof own)[number], method: string) => {
    const isFail = (r: AuthResult) => r.method === method && r.result === 'fail';
    const read = f.results.filter(isFail);
    return read.length > 0 ? read : f.anywhere().filter(isFail);
  };
  const failed = (method: string) => own.flatMap((f) => fails(f, method));
  const failures: AuthFailure[] = [];
  const spf = failed('spf')[0];
  if (spf)
    failures.push({ method: 'spf', domain: domainOf(spf.props['smtp.mailfrom'] ?? spf.props['smtp.helo']) });
  const dkim = own.flatMap((f) =>
    f.results.some((r) => alignedPass(r, fromDomain)) ? [] : fails(f, 'dkim'),
  )[0];
  if (dkim) failures.push({ method: 'dkim', domain: signingDomain(dkim) });
  const dmarc = failed('dmarc')[0];
  if (dmarc) failures.push({ method: 'dmarc', domain: domainOf(dmarc.props['header.from']) });
  return failures;
}

const signingDomain = (r: AuthResult) => domainOf(r.props['header.d'] ?? r.props['header.i']);

// SECURITY: anyone can sign their own mail, so a passing signature vouches only for its own domain: it
// excuses a failed one only when it aligns with From as DMARC's relaxed alignment has it (RFC 7489 §3.1.1:
// the same organizational domain, here the registrable domain by the Public Suffix List).
function alignedPass(r: AuthResult, fromDomain: string | null): boolean {
  const signer = r.method === 'dkim' && r.result === 'pass' ? signingDomain(r) : null;
  return (
    signer !== null && fromDomain !== null && registrable(signer) === registrable(fromDomain.toLowerCase())
  );
}

function domainOf(value: string | undefined): string | null {
  if (!value) return null;
  const domain = value.slice(value.lastIndexOf('@') + 1).toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) && domain.includes('.') ? domain : null;
}
