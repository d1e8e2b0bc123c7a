// OpenAI Responses API (`POST {base}/responses`, wire-formats §2), as OpenAI and the compatible servers
// that copy it (Perplexity) speak it. The only file that knows this wire shape.

import type { AiEvent, StopReason } from '../protocol/events.ts';
import { type ModelRequest, turnText } from '../protocol/request.ts';
import type { SseFrame } from '../protocol/sse-frame.ts';
import {
  completeCall,
  finish,
  inStreamErrorCode,
  readFrame,
  type StreamMapper,
  streamError,
  streamNotice,
} from './stream-parts.ts';

type Call = { callId: string; name: string; args: string };

type WireError = { code?: string | null; type?: string; message?: string } | null;

// Lenient reading: every event is one flat object keyed by `type`; unknown types and fields are ignored.
type Event = {
  type?: string;
  output_index?: number;
  delta?: string;
  item?: { type?: string; call_id?: string; id?: string; name?: string; arguments?: string };
  response?: {
    usage?: { input_tokens?: number; output_tokens?: number } | null;
    error?: WireError;
    incomplete_details?: { reason?: string } | null;
  };
  // `event: error` is flat (§2.2(d)); Perplexity's `response.failed` puts `error` here too.
  code?: string | null;
  message?: string;
  error?: WireError;
};

const incompleteReasons: Record<string, StopReason> = {
  max_output_tokens: 'max_tokens',
  content_filter: 'content_filter',
};

export function createResponsesMapper(keys: readonly string[] = []): StreamMapper {
  let started = false;
  let done = false;
  let completedCalls = 0;
  // Calls by output_index, which every event of an item carries (§2.2(c): never by arrival order).
  const calls = new Map<number, Call>();

  const end = (events: AiEvent[]): AiEvent[] => {
    done = true;
    return events;
  };

  const fail = (error: WireError | undefined): AiEvent[] =>
    end([streamError(inStreamErrorCode(error?.code, error?.type), error?.message, keys)]);

  // Usage lives only in the terminal `response` object (§2.4, §7.5).
  const close = (response: Event['response'], stopReason: StopReason): AiEvent[] => {
    const u = response?.usage;
    const usage =
      u && typeof u.input_tokens === 'number'
        ? { input: u.input_tokens, output: u.output_tokens ?? 0 }
        : null;
    return end(finish(stopReason, usage));
  };

  return {
    frame({ event: name, data }: SseFrame): AiEvent[] {
      if (done) return [];
      const e = readFrame<Event>(data);
      const type = e?.type ?? name;

      // Two in-stream failure shapes (§2.2(d)): a flat `error` event, and `response.failed` with the
      // error nested in `response` (OpenAI) or at the top of the event (Perplexity). A failure as the
      // very first event starts no message, as in Chat (fixtures/sse/README.md, `message_start`).
      if (type === 'error') return fail({ code: e?.code, message: e?.message });
      if (type === 'response.failed') return fail(e?.response?.error ?? e?.error);
      const out: AiEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'message_start' });
      }
      // An unreadable event loses what it carried, and the events after it still count (DESIGN §6); only
      // completed, incomplete or failed end the turn.
      if (!e) return [...out, streamNotice()];

      const index = e.output_index ?? 0;
      switch (type) {
        case 'response.output_text.delta':
          if (typeof e.delta === 'string' && e.delta !== '') out.push({ type: 'text_delta', text: e.delta });
          break;
        case 'response.output_item.added':
          // The name and the pairing id (`call_id`, not the item's `fc_…` id) come only here (§2.2(b)).
          if (e.item?.type === 'function_call') {
            const call = {
              callId: e.item.call_id ?? e.item.id ?? `call_${index}`,
              name: e.item.name ?? '',
              args: '',
            };
            calls.set(index, call);
            out.push({ type: 'tool_call_start', callId: call.callId, name: call.name });
          }
          break;
        case 'response.function_call_arguments.delta': {
          const call = calls.get(index);
          if (typeof e.delta === 'string' && e.delta !== '') {
            // A fragment for no announced call is an orphan: its text belongs to no call.
            if (!call) {
              out.push(streamNotice());
              break;
            }
            call.args += e.delta;
            out.push({ type: 'tool_call_input_delta', callId: call.callId, delta: e.delta });
          }
          break;
        }
        case 'response.output_item.done': {
          // A call completes at its item's end; the final item holds the full argument text (§2.2).
          const call = calls.get(index);
          if (e.item?.type === 'function_call') {
            // A call whose output_item.added never came (or was unreadable) was never started: dropped.
            if (!call) {
              out.push(streamNotice());
              break;
            }
            calls.delete(index);
            const completion = completeCall(call.callId, call.name, e.item.arguments ?? call.args);
            if (completion.type === 'tool_call_complete') completedCalls++;
            out.push(completion);
          }
          break;
        }
        case 'response.completed':
          return [...out, ...close(e.response, completedCalls > 0 ? 'tool_use' : 'end_turn')];
        case 'response.incomplete': {
          // §2.2(d) names two reasons; any other is still an answer that was cut short.
          const reason = e.response?.incomplete_details?.reason ?? '';
          return [...out, ...close(e.response, incompleteReasons[reason] ?? 'max_tokens')];
        }
      }
      return out;
    },

    // No `[DONE]` here: only completed / incomplete / failed end a stream; anything else was cut off (§7.6).
    end(): AiEvent[] {
      if (done) return [];
      return end([streamError('malformed_stream')]);
    },
  };
}

// Error bodies are the same `{"error": {"type", "code", "message"}}` as Chat (§2.4).
export { classifyChatError as classifyResponsesError } from './openai-chat.ts';

// The request body (§2.1, §2.3): the system prompt as `instructions`, history as input items (a call and
// its output as `function_call` / `function_call_output` items), flat function tools, nothing stored at
// the provider.
export function buildResponsesBody(req: ModelRequest): Record<string, unknown> {
  const input: Record<string, unknown>[] = [];
  for (const turn of req.history) {
    const text = turnText(turn);
    // An assistant's words come before the calls it made; a user's tool outputs before their new words.
    if (text && turn.role === 'assistant') input.push({ role: 'assistant', content: text });
    for (const b of turn.content) {
      if (b.type === 'tool_call') {
        input.push({
          type: 'function_call',
          call_id: b.id,
          name: b.name,
          arguments: JSON.stringify(b.input ?? {}),
        });
      } else if (b.type === 'tool_result') {
        input.push({
          type: 'function_call_output',
          call_id: b.callId,
          output: b.isError ? `Error: ${b.output}` : b.output,
        });
      }
    }
    if (text && turn.role === 'user') input.push({ role: 'user', content: text });
  }
  return {
    model: req.model,
    ...(req.system ? { instructions: req.system } : {}),
    input,
    ...(req.tools?.length
      ? {
          tools: req.tools.map((t) => ({
            type: 'function',
            name: t.name,
            description: t.description,
            parameters: t.inputSchema,
          })),
        }
      : {}),
    ...(req.maxOutputTokens ? { max_output_tokens: req.maxOutputTokens } : {}),
    store: false,
    stream: true,
  };
}
