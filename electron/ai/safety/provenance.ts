// Provenance (DESIGN §7): which strings of a tool call's arguments reached the model only from untrusted
// content (tool results, quoted mail) and not from the user's own words. The approval card marks those
// arguments "from the email, not from you", and a side-effecting call that names a destination (an
// address, a link, a host) the user never wrote is never auto-allowed (chat/call-gate.ts, gateDecision).
//
// Decisions taken here (and tested in provenance.test.ts):
// - Text is compared by tokens: words of 4+ letters or digits, lower-cased, and destinations
//   (destinations.ts). A token counts as the user's when the user wrote it as a whole token, not when it
//   merely sits inside a longer word of theirs ("port" is not vouched for by "report"); a destination
//   counts as theirs only when they wrote that whole destination.
// - Words are read after percent-decoding too, so another email's text carried URL-encoded in a link
//   (`?d=Hey%20Bob%2C…`) is still seen as that email's words.
// - Tool results already in the history carry no `untrusted` flag, so all of them count as untrusted: tool
//   output is never the user's words. Quoted mail in a user turn (an untrusted block) is not theirs either.

import type { Turn } from '../protocol/messages.ts';
import type { Provenance } from '../tools/tool.ts';
import { argumentDestinations, destinations } from './destinations.ts';
import { isUntrustedBlock } from './untrusted.ts';

/** The words and destinations of a text, lower-cased; words at least 4 characters long. */
export function tokens(text: string): Set<string> {
  const out = new Set<string>(destinations(text));
  for (const word of decodePercent(text)
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 4) out.add(word);
  }
  return out;
}

function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/giu, (encoded) => {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return encoded;
    }
  });
}

export class ProvenanceTracker {
  private readonly untrusted = new Set<string>();
  private readonly user = new Set<string>();

  constructor(history: readonly Turn[], prompt: string | undefined) {
    for (const turn of history) {
      for (const block of turn.content) {
        if (block.type === 'tool_result') this.addUntrusted(block.output);
        if (block.type === 'text' && turn.role === 'user') {
          if (isUntrustedBlock(block.text)) this.addUntrusted(block.text);
          else this.addUser(block.text);
        }
      }
    }
    if (prompt !== undefined) this.addUser(prompt);
  }

  addUntrusted(text: string): void {
    for (const t of tokens(text)) this.untrusted.add(t);
  }

  private addUser(text: string): void {
    for (const t of tokens(text)) this.user.add(t);
  }

  /** Per string argument: is some token of it untrusted and not the user's; which destinations are not theirs. */
  of(args: unknown): Provenance {
    const fromUntrusted: string[] = [];
    const notNamedByUser = new Set<string>();
    for (const [path, value] of stringLeaves(args, '')) {
      // SECURITY: a destination is the user's only when they wrote that whole destination (DESIGN §7): an
      // address or link that merely holds one of theirs is a stranger, and the gate asks about it.
      const named = argumentDestinations(value);
      if ([...tokens(value), ...named].some((t) => this.untrusted.has(t) && !this.user.has(t)))
        fromUntrusted.push(path);
      for (const d of named) if (!this.user.has(d)) notNamedByUser.add(d);
    }
    return { fromUntrusted, notNamedByUser: [...notNamedByUser] };
  }
}

function stringLeaves(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, path ? `${path}.${k}` : k));
  }
  return [];
}
