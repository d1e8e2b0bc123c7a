// The answer as it streams, kept as the same blocks a stored turn has (shared/contract.ts `ChatBlock`), so a
// finished answer joins the transcript as it will read after a reload. Pure; tested in live-blocks.test.ts.
import type { ChatBlock, UntrustedPart } from '../../../shared/contract.ts';

// Text continues the text block it follows; after a tool call or result it starts a new one.
export function withText(blocks: readonly ChatBlock[], text: string): ChatBlock[] {
  const last = blocks.at(-1);
  if (last?.kind === 'text') return [...blocks.slice(0, -1), { kind: 'text', text: last.text + text }];
  return [...blocks, { kind: 'text', text }];
}

export const textOf = (blocks: readonly ChatBlock[]): string =>
  blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join('');

// What the user sent, as its stored turn reads: quoted mail first (context, not their words), then the text.
export function userBlocks(prompt: string, quoted: readonly UntrustedPart[]): ChatBlock[] {
  const text: ChatBlock = { kind: 'text', text: prompt };
  return quoted.length > 0 ? [{ kind: 'quote', parts: [...quoted] }, text] : [text];
}
