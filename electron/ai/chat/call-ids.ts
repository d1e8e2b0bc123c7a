// Who a tool call is (issue 13, DESIGN §7). A provider's call id is the model's word: it may be empty,
// repeated within a round (a red-team server sent `mark_read` and `send_mail` both as `call_same`, and one
// approval ran both) or reused in every round (`call_0`). So Skimmer names every call itself, unique in its
// conversation, and keeps the provider's id only to pair the call with its result on the wire
// (protocol/wire-ids.ts). An approval names Skimmer's id and the hash of the call's arguments, so an answer
// can never apply to another call, nor to this id with other arguments.
import { createHash, randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: the id is typed at the command line

/**
 * A new call id (`sc-` and 10 characters, 50 bits) that none of `taken` has. Not `sk-`: that is shaped like
 * an API key, and redaction (protocol/redact.ts) would mask it in the audit log.
 */
export function newCallId(taken: ReadonlySet<string>): string {
  for (;;) {
    const bytes = randomBytes(10);
    const id = `sc-${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
    if (!taken.has(id)) return id;
  }
}

/** The hash an approval carries: SHA-256 of the arguments as canonical JSON (keys sorted), hex. */
export function argsHash(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

// JSON with object keys sorted at every depth, so `{a,b}` and `{b,a}` hash the same and nothing else does.
function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
