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

export type TrimResult = { ok: true; history: Turn[]; dropped: number } | { ok: false; code: 'context_overflow' };

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
  const tailStart = Math.max(headEnd, pinnedTailStart(history));
  // Try each way of dropping turns headEnd…cut-1, fewest first. The gap starts right after a user turn
  // (the first user message, or the note turn below), so the first turn kept after it must be an
  // assistant turn: then roles still alternate wherever they did before (Anthropic requires alternation
  // and a user turn first), and the gap is whole groups, since a group only ever starts at an assistant
  // turn or a plain user turn and never has an assistant turn as its second member. A history with no
  // assistant turn to resume at overflows rather than being joined user-to-user.
  for (let cut = headEnd + 1; cut <= tailStart; cut++) {
    kept -= sizes[cut - 1] ?? 0;
    if (history[cut]?.role !== 'assistant') continue;
    const trimmed = withGap(history, headEnd, cut);
    const noteCost =
      headEnd === 0
        ? estimateTokens(trimmed[0] as Turn)
        : estimateTokens(trimmed[headEnd - 1] as Turn) - (sizes[headEnd - 1] ?? 0);
    if (kept + noteCost <= budget) return { ok: true, history: trimmed, dropped: cut - headEnd };
  }
  return { ok: false, code: 'context_overflow' };
}

// Turns before this index stay: everything up to and including the first user message. (That message
// ends its group: a group is an assistant turn with calls plus the user turn after it.) Zero when there
// is no user message at all.
function pinnedHeadEnd(history: readonly Turn[]): number {
  return history.findIndex((t) => t.role === 'user') + 1;
}

// Turns from this index on stay: the last two, plus the assistant turn whose calls the first of them
// answers, so the newest group is never split.
function pinnedTailStart(history: readonly Turn[]): number {
  const start = Math.max(0, history.length - 2);
  const first = history[start];
  const before = history[start - 1];
  if (first?.role === 'user' && before !== undefined && opensCalls(before)) return start - 1;
  return start;
}

function opensCalls(turn: Turn): boolean {
  return turn.role === 'assistant' && turn.content.some((b) => b.type === 'tool_call');
}

// The history without turns headEnd…cut-1, with the note where they were. The note is appended as a text
// block to the end of the first user message, which is the turn right before the gap: inserting a
// separate user turn there would put two user turns side by side. Only when there is no user message to
// carry it does the note become a turn of its own, first, where a user turn is what providers expect.
// New arrays and objects throughout: the stored turns are shared, never changed.
function withGap(history: readonly Turn[], headEnd: number, cut: number): Turn[] {
  const note: Block = { type: 'text', text: omissionNote(cut - headEnd) };
  const rest = history.slice(cut);
  if (headEnd === 0) return [{ role: 'user', content: [note] }, ...rest];
  const head = history.slice(0, headEnd);
  const first = head[headEnd - 1] as Turn;
  head[headEnd - 1] = { ...first, content: [...first.content, note] };
  return [...head, ...rest];
}
