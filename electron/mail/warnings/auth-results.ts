// Reading the Authentication-Results header field (RFC 8601) that the receiving server added, for the
// `authentication` warning (DESIGN §11, "Warnings"). mailauth 7.1.0 was looked at: it checks SPF, DKIM and
// DMARC itself (DNS lookups Skimmer does not want at import) and reads these headers only with an internal
// helper (lib/parse-dkim-headers.js, no public export) that keeps one result per method but DKIM and does not
// handle nested comments; this is the small parser of RFC 8601 §2.2 instead. Pure; tests replay real headers
// from fixtures/auth-results/.

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

/** Comments (nested, RFC 5322 §3.2.2) taken out, quoted strings kept whole; folding undone. */
function withoutComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    if (c === '\\' && (quoted || depth > 0)) {
      if (depth === 0) out += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (depth === 0 && c === '"') quoted = !quoted;
    if (!quoted && c === '(') {
      depth++;
      continue;
    }
    if (!quoted && c === ')' && depth > 0) {
      depth--;
      if (depth === 0) out += ' ';
      continue;
    }
    if (depth === 0) out += c;
  }
  return out.replace(/\r?\n[ \t]+/g, ' ').replace(/[\r\n]+/g, ' ');
}

/** Splits at `;` outside quoted strings. */
function segments(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    if (c === '\\' && quoted) {
      current += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1) : v);

// `method[/version] = result`, then `reason = value` and `ptype.property = value`, any CFWS around `=`, `.`, `/`.
const methodSpec = /^([a-z0-9][a-z0-9_-]*)\s*(?:\/\s*\d+\s*)?=\s*([a-z0-9_-]+)/i;
const propSpec = /^([a-z0-9_-]+(?:\s*\.\s*[a-z0-9_.-]+)?)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s";]*)/i;

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
  const [first = '', ...rest] = segments(withoutComments(value));
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

/**
 * What the receiving server says failed. `fields` are the message's Authentication-Results values, topmost
 * first. The topmost one is your own server's (RFC 8601 §5: a server removes fields with its own authserv-id
 * from incoming mail and adds its own above the rest); a server that writes one field per check (Postfix with
 * OpenDKIM and OpenDMARC) writes them all with its id, so every field with the topmost one's id is read. A
 * field forged lower down with that id can only add a failure, never hide one: a passing DKIM signature
 * excuses a failing one only inside the same field (a list that re-signs what it forwards).
 */
export function authFailures(fields: readonly string[]): AuthFailure[] {
  const [top, ...others] = fields.map(parseAuthResults);
  if (!top) return [];
  const id = top.authservId?.toLowerCase();
  const own = id === undefined ? [top] : [top, ...others.filter((f) => f.authservId?.toLowerCase() === id)];
  const failed = (method: string) =>
    own.flatMap((f) => f.results.filter((r) => r.method === method && r.result === 'fail'));
  const failures: AuthFailure[] = [];
  const spf = failed('spf')[0];
  if (spf)
    failures.push({ method: 'spf', domain: domainOf(spf.props['smtp.mailfrom'] ?? spf.props['smtp.helo']) });
  const dkim = own.flatMap((f) =>
    f.results.some((r) => r.method === 'dkim' && r.result === 'pass')
      ? []
      : f.results.filter((r) => r.method === 'dkim' && r.result === 'fail'),
  )[0];
  if (dkim)
    failures.push({ method: 'dkim', domain: domainOf(dkim.props['header.d'] ?? dkim.props['header.i']) });
  const dmarc = failed('dmarc')[0];
  if (dmarc) failures.push({ method: 'dmarc', domain: domainOf(dmarc.props['header.from']) });
  return failures;
}

function domainOf(value: string | undefined): string | null {
  if (!value) return null;
  const domain = value.slice(value.lastIndexOf('@') + 1).toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) && domain.includes('.') ? domain : null;
}
