// What every provider mapper shares, so each provider file holds only its own wire shape: the mapper
// interface, assembling a tool call's argument text into its input, and the events that end a stream.
import { type AiErrorCode, aiErrorMessages, defaultCodeForStatus } from '../protocol/errors.ts';
import type { AiEvent, StopReason } from '../protocol/events.ts';
import { redact } from '../protocol/redact.ts';
import type { SseFrame } from '../protocol/sse-frame.ts';

// A mapper turns one provider's SSE frames into the neutral events (protocol/events.ts). `end` is called
// when the body ends; after a terminal event every further call returns nothing.
export type StreamMapper = { frame(frame: SseFrame): AiEvent[]; end(): AiEvent[] };

export function streamError(code: AiErrorCode, detail?: string, keys: readonly string[] = []): AiEvent {
  return {
    type: 'error',
    code,
    message: aiErrorMessages[code],
    ...(detail ? { providerDetail: redact(detail, keys) } : {}),
    terminal: true,
  };
}

// The non-terminal `malformed_stream` notice (DESIGN §6): one undecodable frame, one orphan fragment or one
// dropped tool call is lost, and the mapper goes on, so the turn still ends with the provider's own end.
export function streamNotice(): AiEvent {
  return {
    type: 'error',
    code: 'malformed_stream',
    message: aiErrorMessages.malformed_stream,
    terminal: false,
  };
}

// A frame's data as the JSON object every provider sends, or null when it is not one (then the caller
// emits a notice for that frame).
export function readFrame<T>(data: string): T | null {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

// Arguments arrive as text and are parsed once, when the call completes (DESIGN §6): empty is `{}`;
// text that is not a JSON object drops that one call with a non-terminal notice, and so does a call that
// never got a name (no tool could run it, and a stored call must name its tool).
export function completeCall(callId: string, name: string, argumentText: string): AiEvent {
  if (name === '') return streamNotice();
  if (argumentText.trim() === '') return { type: 'tool_call_complete', callId, name, input: {} };
  try {
    const input: unknown = JSON.parse(argumentText);
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
      return { type: 'tool_call_complete', callId, name, input };
    }
  } catch {
    // falls through to the notice
  }
  return streamNotice();
}

// The closing events of a stream: the usage totals if any, then the stop.
export function finish(stopReason: StopReason, usage: { input: number; output: number } | null): AiEvent[] {
  return [
    ...(usage ? [{ type: 'usage' as const, inputTokens: usage.input, outputTokens: usage.output }] : []),
    { type: 'message_stop', stopReason },
  ];
}

// In-stream error types and codes as providers name them (wire-formats §1.3, §2.2, §3.3).
export function inStreamErrorCode(...names: (string | null | undefined)[]): AiErrorCode {
  const known = names.filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase());
  if (
    known.some(
      (n) => n === 'insufficient_quota' || n === 'enforced_spend_limit_reached' || n === 'billing_error',
    )
  ) {
    return 'quota_exceeded';
  }
  if (known.some((n) => n.startsWith('rate_limit'))) return 'rate_limited';
  if (known.some((n) => n === 'context_length_exceeded')) return 'context_overflow';
  if (known.some((n) => n === 'invalid_request_error' || n === 'invalid_prompt')) return 'invalid_request';
  return 'unavailable';
}

// HTTP status first (DESIGN §6); only a 429 looks at the body, to tell an empty quota from a rate limit,
// and a 402 (Anthropic's billing error) means no credit.
export function httpErrorCode(status: number, bodyNames: (string | null | undefined)[]): AiErrorCode {
  if (status === 402) return 'quota_exceeded';
  if (status === 429 && inStreamErrorCode(...bodyNames) === 'quota_exceeded') return 'quota_exceeded';
  return defaultCodeForStatus(status);
}
