// Anthropic Messages API (`POST {base}/v1/messages`, wire-formats §3), as Anthropic and
// Anthropic-compatible gateways (OpenRouter) speak it. The only file that knows this wire shape.

import type { AiEvent, StopReason } from '../protocol/events.ts';
import type { ModelRequest } from '../protocol/request.ts';
import type { SseFrame } from '../protocol/sse-frame.ts';
import {
  completeCall,
  finish,
  httpErrorCode,
  inStreamErrorCode,
  readFrame,
  type StreamMapper,
  streamError,
  streamNotice,
} from './stream-parts.ts';

type Call = { id: string; name: string; args: string };

type Usage = {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
};

const usageFields = [
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'output_tokens',
] as const;

// The error object of an in-stream `error` event and of an HTTP error body (§3.3, §3.5). The spend-cap
// marker `details.error_code` may sit inside `error` or beside it (fixtures README, ambiguity 6).
type ErrorObject = { type?: string; message?: string; details?: { error_code?: string } };

// Lenient reading: unknown events, block types, delta types and fields are ignored (§3.3).
type Payload = {
  type?: string;
  index?: number;
  message?: { usage?: Usage };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: Usage;
  error?: ErrorObject;
  details?: { error_code?: string };
};

// §3.4. `pause_turn` and unknown values fall back to end_turn; running out of context window while
// answering is being cut off by length.
const stopReasons: Record<string, StopReason> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

export function createAnthropicMapper(keys: readonly string[] = []): StreamMapper {
  let started = false;
  let done = false;
  let stopReason: string | null = null;
  let calledTool = false;
  const usage: Usage = {};
  const open = new Map<number, Call>(); // tool_use blocks by content-block index (§7.2)

  const end = (events: AiEvent[]): AiEvent[] => {
    done = true;
    return events;
  };

  const complete = (index: number, call: Call): AiEvent => {
    open.delete(index);
    const event = completeCall(call.id, call.name, call.args);
    if (event.type === 'tool_call_complete') calledTool = true;
    return event;
  };

  // message_delta usage is cumulative and, from gateways, may carry the real input count that
  // message_start reported as 0, so each field takes the latest value seen (§3.4).
  const addUsage = (u: Usage | undefined): void => {
    for (const field of usageFields) {
      const value = u?.[field];
      if (typeof value === 'number') usage[field] = value;
    }
  };

  const close = (): AiEvent[] => {
    const out: AiEvent[] = [];
    // A block left open at message_stop still completes rather than vanishing.
    for (const [index, call] of open) out.push(complete(index, call));
    const mapped = stopReasons[stopReason ?? 'end_turn'] ?? 'end_turn';
    // A gateway that says end_turn after a tool call still asks for the tool to run (as Chat, §1.7).
    const reason = calledTool && mapped === 'end_turn' ? 'tool_use' : mapped;
    // Cache counts are outside input_tokens on Anthropic (§3.4, §7.5); adding them makes inputTokens
    // the whole prompt, as OpenAI's prompt_tokens is.
    const totals =
      usage.input_tokens === undefined && usage.output_tokens === undefined
        ? null
        : {
            input:
              (usage.input_tokens ?? 0) +
              (usage.cache_creation_input_tokens ?? 0) +
              (usage.cache_read_input_tokens ?? 0),
            output: usage.output_tokens ?? 0,
          };
    return end([...out, ...finish(reason, totals)]);
  };

  return {
    frame({ event, data }: SseFrame): AiEvent[] {
      if (done) return [];
      const payload = readFrame<Payload>(data);
      // The `event:` name equals the JSON type (§3.3); the type is read first, the name is the fallback.
      const type = payload?.type ?? event;
      if (type === 'error') {
        const error = payload?.error;
        return end([
          streamError(
            inStreamErrorCode(error?.details?.error_code, payload?.details?.error_code, error?.type),
            error?.message,
            keys,
          ),
        ]);
      }
      const out: AiEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'message_start' });
      }
      // An unreadable event loses what it carried, and the events after it still count (DESIGN §6); only
      // message_stop ends the turn.
      if (!payload) return [...out, streamNotice()];
      const index = payload.index ?? 0;
      switch (type) {
        case 'message_start':
          addUsage(payload.message?.usage);
          break;
        case 'content_block_start': {
          const block = payload.content_block;
          if (block?.type === 'tool_use') {
            const call = { id: block.id ?? `toolu_${index}`, name: block.name ?? '', args: '' };
            open.set(index, call);
            out.push({ type: 'tool_call_start', callId: call.id, name: call.name });
          }
          break;
        }
        case 'content_block_delta': {
          // thinking_delta, signature_delta, citations_delta and unknown deltas carry nothing we show.
          const delta = payload.delta;
          if (delta?.type === 'text_delta' && delta.text) {
            out.push({ type: 'text_delta', text: delta.text });
          }
          const call = open.get(index);
          // The input streams as partial_json text, parsed once at content_block_stop (§3.3(b)); the
          // first fragment is normally "" and gives no event. A fragment for no open tool block is an
          // orphan: its text belongs to no call.
          if (delta?.type === 'input_json_delta' && delta.partial_json) {
            if (!call) {
              out.push(streamNotice());
              break;
            }
            call.args += delta.partial_json;
            out.push({ type: 'tool_call_input_delta', callId: call.id, delta: delta.partial_json });
          }
          break;
        }
        case 'content_block_stop': {
          const call = open.get(index);
          if (call) out.push(complete(index, call));
          break;
        }
        case 'message_delta':
          stopReason = payload.delta?.stop_reason ?? stopReason;
          addUsage(payload.usage);
          break;
        case 'message_stop':
          out.push(...close());
          break;
        // ping (a keep-alive, §3.3) and unknown events carry nothing.
      }
      return out;
    },

    // Only message_stop ends an Anthropic stream; a body that ends before it was cut off (§7.6).
    end(): AiEvent[] {
      if (done) return [];
      return end([streamError('malformed_stream')]);
    },
  };
}

// Reads an error body of this API ({"type":"error","error":{"type","message"}}, §3.5) for the transport.
export function classifyAnthropicError(
  status: number,
  _headers: Headers,
  body: string,
): { code: ReturnType<typeof httpErrorCode>; detail?: string } {
  let payload: Payload | undefined;
  try {
    payload = JSON.parse(body) as Payload;
  } catch {
    payload = undefined;
  }
  const error = payload?.error;
  return {
    code: httpErrorCode(status, [error?.details?.error_code, payload?.details?.error_code, error?.type]),
    detail: error?.message,
  };
}

// Anthropic requires max_tokens; this is the cap when the caller sets none.
const defaultMaxTokens = 4096;

// The request body (§3.2): `system` at the top level, content as blocks, tool input as an object, tool
// results first in the next user message with `is_error`.
export function buildAnthropicBody(req: ModelRequest): Record<string, unknown> {
  const messages = req.history.map((turn) => ({
    role: turn.role,
    content: [...turn.content]
      .sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'))
      .map((b) => {
        if (b.type === 'text') return { type: 'text', text: b.text };
        if (b.type === 'tool_call') return { type: 'tool_use', id: b.id, name: b.name, input: b.input ?? {} };
        return {
          type: 'tool_result',
          tool_use_id: b.callId,
          content: b.output,
          ...(b.isError ? { is_error: true } : {}),
        };
      }),
  }));
  return {
    model: req.model,
    max_tokens: req.maxOutputTokens ?? defaultMaxTokens,
    ...(req.system ? { system: req.system } : {}),
    messages,
    ...(req.tools?.length
      ? {
          tools: req.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema,
          })),
        }
      : {}),
    stream: true,
  };
}
