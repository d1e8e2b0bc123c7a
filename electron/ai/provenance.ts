// Provenance (DESIGN §7): which strings of a tool call's arguments reached the model only from untrusted
// content (tool results, quoted mail) and not from the user's own words. The approval card marks those
// arguments "from the email, not from you", and a side-effecting call that names an address or URL the
// user never wrote is never auto-allowed (engine.ts, gateDecision).
//
// Decisions taken here (and tested in provenance.test.ts):
// - Text is compared by tokens: words of 4+ letters or digits, mail addresses and URLs, lower-cased. A
//   token counts as the user's when the user wrote it as a whole token, not when it merely sits inside a
//   longer word of theirs ("port" is not vouched for by "report").
// - Tool results already in the history carry no `untrusted` flag, so all of them count as untrusted: tool
//   output is never the user's words. Quoted mail in a user turn (an untrusted block) is not theirs either.
import type { Turn } from './protocol/messages.ts';
import type { Provenance } from './tools/tool.ts';
import { isUntrustedBlock } from './untrusted.ts';

// The lookbehind lets an address start only where a run of address characters starts, and no part may hold
// a second "@": without both, a long run is rescanned from every position (quadratic: a 40,000-character
// word took 3 s, 100,000 characters of "a@" 10 s).
const ADDRESS =
  /(?<![^\s<>()[\]"',;:])[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+\.[^\s<>()[\]"',;:@]+|https?:\/\/[^\s<>"')\]]+/giu;

/** The mail addresses and URLs in a text, lower-cased, without trailing dots. */
export function addresses(text: string): string[] {
  return [...text.toLowerCase().matchAll(ADDRESS)].map((m) => m[0].replace(/[.]+$/, ''));
}

/** The words, mail addresses and URLs of a text, lower-cased, each at least 4 characters long. */
export function tokens(text: string): Set<string> {
  const out = new Set<string>(addresses(text));
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) out.add(word);
  return new Set([...out].filter((t) => t.length >= 4));
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

  /** Per string argument: is some token of it untrusted and not the user's; which addresses are not theirs. */
  of(args: unknown): Provenance {
    const fromUntrusted: string[] = [];
    const notNamedByUser = new Set<string>();
    for (const [path, value] of stringLeaves(args, '')) {
      if ([...tokens(value)].some((t) => this.untrusted.has(t) && !this.user.has(t)))
        fromUntrusted.push(path);
      for (const a of addresses(value)) if (!this.user.has(a)) notNamedByUser.add(a);
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
