// Provider-neutral conversation messages (DESIGN §6). The system prompt is not a message. Every tool
// call must be answered by exactly one result in the following user turn: `assertToolPairing` lists
// what breaks that rule, and storage, budgeting and cancellation keep it at zero.
import { z } from 'zod';

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
// `id` is Skimmer's own (unique in the conversation, electron/ai/chat/call-ids.ts); `wireId` is what the provider
// called it, kept only to pair the call with its result on the wire (wire-ids.ts). Turns stored before
// Skimmer named calls itself have no `wireId`: their `id` is the provider's.
const ToolCallBlock = z.object({
  type: z.literal('tool_call'),
  id: z.string().min(1),
  wireId: z.string().optional(),
  name: z.string().min(1),
  input: z.unknown(),
});
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  callId: z.string().min(1),
  name: z.string().min(1),
  output: z.string(),
  isError: z.boolean(),
});
export const Block = z.discriminatedUnion('type', [TextBlock, ToolCallBlock, ToolResultBlock]);
export type Block = z.infer<typeof Block>;

export const Turn = z.object({ role: z.enum(['user', 'assistant']), content: z.array(Block) });
export type Turn = z.infer<typeof Turn>;

export type PairingProblem =
  | { kind: 'unanswered_call'; turn: number; callId: string }
  | { kind: 'orphan_result'; turn: number; callId: string }
  | { kind: 'duplicate_call'; turn: number; callId: string }
  | { kind: 'misplaced_block'; turn: number; type: 'tool_call' | 'tool_result' };

// Calls live in assistant turns and are answered in the next turn, a user turn; results anywhere else, or
// answering nothing, are problems. An empty list means the history can be sent to any provider.
export function assertToolPairing(history: readonly Turn[]): PairingProblem[] {
  const problems: PairingProblem[] = [];
  const seen = new Set<string>();
  history.forEach((turn, i) => {
    for (const block of turn.content) {
      if (block.type === 'tool_call' && turn.role !== 'assistant') {
        problems.push({ kind: 'misplaced_block', turn: i, type: 'tool_call' });
      }
      if (block.type === 'tool_result' && turn.role !== 'user') {
        problems.push({ kind: 'misplaced_block', turn: i, type: 'tool_result' });
      }
    }
    if (turn.role !== 'assistant') return;
    const calls = turn.content.filter((b) => b.type === 'tool_call');
    const next = history[i + 1];
    const answered = new Set(
      next?.role === 'user' ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.callId) : [],
    );
    for (const call of calls) {
      if (seen.has(call.id)) problems.push({ kind: 'duplicate_call', turn: i, callId: call.id });
      seen.add(call.id);
      if (!answered.has(call.id)) problems.push({ kind: 'unanswered_call', turn: i, callId: call.id });
    }
  });
  history.forEach((turn, i) => {
    if (turn.role !== 'user') return;
    const prev = history[i - 1];
    const calls = new Set(
      prev?.role === 'assistant' ? prev.content.filter((b) => b.type === 'tool_call').map((b) => b.id) : [],
    );
    const answers = new Set<string>();
    for (const block of turn.content) {
      if (block.type !== 'tool_result') continue;
      if (!calls.has(block.callId) || answers.has(block.callId)) {
        problems.push({ kind: 'orphan_result', turn: i, callId: block.callId });
      }
      answers.add(block.callId);
    }
  });
  return problems;
}

// A stored conversation can hold two user turns in a row (an answer that failed before any text is not
// stored); providers such as Anthropic require alternating roles, so adjacent turns of one role are sent
// as one. Tool results stay first in a user turn, as the providers want them.
export function mergeAdjacentTurns(history: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of history) {
    const prev = out.at(-1);
    if (prev && prev.role === turn.role) {
      const content = [...prev.content, ...turn.content];
      out[out.length - 1] = {
        role: turn.role,
        content: [
          ...content.filter((b) => b.type === 'tool_result'),
          ...content.filter((b) => b.type !== 'tool_result'),
        ],
      };
    } else {
      out.push(turn);
    }
  }
  return out;
}
