// The one provider-neutral stream (DESIGN §6). Every provider mapper turns its wire stream into exactly
// these events, so two logically identical answers give identical sequences whoever served them:
// - `message_start` first, once;
// - text as `text_delta`; a tool call as `tool_call_start`, its argument text as
//   `tool_call_input_delta`s, then `tool_call_complete` with the parsed input (`{}` when empty);
// - at most one `usage`, with the totals, right before `message_stop`;
// - then exactly one of `message_stop`, a terminal `error`, or `aborted`.
// A non-terminal `error` (code `malformed_stream`) is a notice: one frame that could not be decoded, one
// tool-argument fragment that belongs to no call, or one dropped tool call is lost, and the stream goes on
// to the provider's own end. A stream that never reaches that end is still a terminal `malformed_stream`.
// `callId` is the provider's id for the call, as it came: it may be empty or repeated (issue 13), so only
// `tool_call_complete` (whole, in order) is acted on; the engine names every call itself (call-ids.ts).
import { z } from 'zod';
import { AiErrorCode } from './errors.ts';

export const StopReason = z.enum(['end_turn', 'tool_use', 'max_tokens', 'content_filter', 'refusal']);
export type StopReason = z.infer<typeof StopReason>;

export const AiEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start') }),
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('tool_call_start'), callId: z.string(), name: z.string() }),
  z.object({ type: z.literal('tool_call_input_delta'), callId: z.string(), delta: z.string() }),
  z.object({
    type: z.literal('tool_call_complete'),
    callId: z.string(),
    name: z.string(),
    input: z.unknown(),
  }),
  z.object({
    type: z.literal('usage'),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('message_stop'), stopReason: StopReason }),
  z.object({
    type: z.literal('error'),
    code: AiErrorCode,
    message: z.string(),
    providerDetail: z.string().max(200).optional(),
    terminal: z.boolean(),
  }),
  z.object({ type: z.literal('aborted') }),
]);
export type AiEvent = z.infer<typeof AiEvent>;

// What the user is told of a notice: the answer is kept, and marked as not whole (DESIGN §6).
export const noticeMessage = 'Part of this answer could not be read.';

export function isTerminal(e: AiEvent): boolean {
  return e.type === 'message_stop' || e.type === 'aborted' || (e.type === 'error' && e.terminal);
}
