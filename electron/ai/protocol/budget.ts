// Fitting a conversation into a model's context window (DESIGN §6 "Budget"). Pure: the stored history is
// never changed; the caller sends what this returns and keeps what it stored.
//
// History is trimmed oldest-first by whole groups: an assistant turn that opens tool calls and the user
// turn that answers them go together, so a trimmed history pairs exactly as the original did
// (`assertToolPairing`). The first user message and the last two turns always stay. If they do not fit,
// the answer is `context_overflow`, never a history a provider would reject.
import type { Block, Turn } from './messages.ts';

// Estimates, not counts (DESIGN §6): the providers' tokenizers differ and some servers report nothing.
// Four characters per token is the usual rule of thumb for English; it undercounts scripts such as CJK,
// which is one reason the caller reserves output tokens on top. The per-message overhead is the role
// marker and separators a chat template wraps around every message: OpenAI's cookbook ("How to count
// tokens with tiktoken") counts 3 per message for its chat models; we round up to 4.
export const charsPerToken = 4;
export const messageOverheadTokens = 4;

export type TrimOptions = {
  maxInputTokens: number;
  reserveOutputTokens: number;
  systemTokens?: number;
  toolTokens?: number;
};

export type TrimResult =
  | { ok: true; history: Turn[]; dropped: number }
  | { ok: false; code: 'context_overflow' };

export function estimateTokens(turn: Turn): number {
  let chars = 0;
  for (const block of turn.content) chars += blockChars(block);
  return Math.ceil(chars / charsPerToken) + messageOverheadTokens;
}

function blockChars(block: Block): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'tool_call':
      // Providers send the input as JSON text (or as an object they serialize), so that is what we count.
      return block.id.length + block.name.length + (JSON.stringify(block.input) ?? '').length;
    case 'tool_result':
      return block.callId.length + block.name.length + block.output.length;
  }
}

// The note that marks the gap. It is our text, so it may sit in a user message without being wrapped as
// untrusted content.
export function omissionNote(dropped: number): string {
  const what = dropped === 1 ? '1 earlier message was' : `${dropped} earlier messages were`;
  return `[${what} left out here to fit the model's context window.]`;
}

export function trimHistory(history: readonly Turn[], opts: TrimOptions): TrimResult {
  const budget =
    opts.maxInputTokens - opts.reserveOutputTokens - (opts.systemTokens ?? 0) - (opts.toolTokens ?? 0);
  const sizes = history.map(estimateTokens);
  let kept = sizes.reduce((a, b) => a + b, 0);
  if (kept <= budget) return { ok: true, history: [...history], dropped: 0 };

  const headEnd = pinnedHeadEnd(history);
  const tailStart = Math.max(headEnd, history.length - 2);
  // Try each way of dropping turns headEnd…cut-1, fewest first. The gap starts right after a user turn
  // (the first user message, or the note turn below), and the first turn kept after it must be an
  // assistant turn. That one rule does two jobs. Roles still alternate wherever they did before
  // (Anthropic requires alternation and a user turn first). And the gap is whole groups: a group is an
  // assistant turn with calls plus the user turn answering them, so an assistant turn is never the
  // second half of one, and a kept user turn with results always keeps its call (the newest group
  // included, when its results are the second-to-last turn). A history with no assistant turn to resume
  // at overflows rather than being joined user-to-user.
  for (let cut = headEnd + 1; cut <= tailStart; cut++) {
    kept -= sizes[cut - 1] ?? 0;
    if (history[cut]?.role !== 'assistant') continue;
    const dropped = cut - headEnd;
    const carrier = noteCarrier(history, headEnd, dropped);
    const noteCost = estimateTokens(carrier) - (headEnd === 0 ? 0 : (sizes[headEnd - 1] ?? 0));
    if (kept + noteCost > budget) continue;
    return {
      ok: true,
      history: [...history.slice(0, Math.max(0, headEnd - 1)), carrier, ...history.slice(cut)],
      dropped,
    };
  }
  return { ok: false, code: 'context_overflow' };
}

// Turns before this index stay: everything up to and including the first user message. (That message
// ends its group: a group is an assistant turn with calls plus the user turn after it.) Zero when there
// is no user message at all.
function pinnedHeadEnd(history: readonly Turn[]): number {
  return history.findIndex((t) => t.role === 'user') + 1;
}

// The turn that carries the note marking the gap. The note is appended as a text block to the end of the
// first user message, which is the turn right before the gap: a separate user turn there would put two
// user turns side by side. Only when there is no user message to carry it does the note become a turn of
// its own, first, where a user turn is what providers expect. A new object: stored turns are shared,
// never changed.
function noteCarrier(history: readonly Turn[], headEnd: number, dropped: number): Turn {
  const note: Block = { type: 'text', text: omissionNote(dropped) };
  const first = history[headEnd - 1];
  if (first === undefined) return { role: 'user', content: [note] };
  return { ...first, content: [...first.content, note] };
}
