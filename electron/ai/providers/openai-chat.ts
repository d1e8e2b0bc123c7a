// OpenAI Chat Completions (`POST {base}/chat/completions`, wire-formats §1), as OpenAI and the
// OpenAI-compatible local servers (Ollama, LM Studio, llama.cpp, vLLM) speak it. The only file that
// knows this wire shape.
import type { AiEvent, StopReason } from '../protocol/events.ts';
import { type ModelRequest, turnText } from '../protocol/request.ts';
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

// Lenient reading: unknown fields are ignored, missing ones are tolerated (§1.7).
type Chunk = {
  error?: { type?: string; code?: string | null; message?: string };
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
};

const stopReasons: Record<string, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  content_filter: 'content_filter',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
};

export function createChatMapper(keys: readonly string[] = []): StreamMapper {
  let started = false;
  let done = false;
  let finishReason: string | null = null;
  let usage: { input: number; output: number } | null = null;
  const calls: Call[] = []; // in order of first appearance
  const atIndex = new Map<number, Call>(); // the call currently streaming at each index

  const end = (events: AiEvent[]): AiEvent[] => {
    done = true;
    return events;
  };

  // Every call completes when the model says it has finished (§1.3(c): never assume they are sequential).
  const completeAll = (): AiEvent[] => calls.map((c) => completeCall(c.id, c.name, c.args));

  const close = (): AiEvent[] => {
    // finish_reason is advisory (§1.7): some servers say "stop" after calling a tool.
    const reason = calls.length > 0 ? 'tool_use' : (stopReasons[finishReason ?? 'stop'] ?? 'end_turn');
    return end(finish(reason, usage));
  };

  return {
    frame({ data }: SseFrame): AiEvent[] {
      if (done) return [];
      if (data.trim() === '[DONE]')
        return finishReason === null ? end([streamError('malformed_stream')]) : close();
      const chunk = readFrame<Chunk>(data);
      if (chunk?.error) {
        return end([
          streamError(inStreamErrorCode(chunk.error.code, chunk.error.type), chunk.error.message, keys),
        ]);
      }
      const out: AiEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'message_start' });
      }
      // An unreadable chunk loses what it carried, and the chunks after it still count (DESIGN §6).
      if (!chunk) return [...out, streamNotice()];
      if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
        usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens ?? 0 };
      }
      const choice = chunk.choices?.[0];
      if (!choice) return out;
      const content = choice.delta?.content;
      if (typeof content === 'string' && content !== '') out.push({ type: 'text_delta', text: content });
      for (const part of choice.delta?.tool_calls ?? []) {
        const index = part.index ?? 0;
        let call = atIndex.get(index);
        const fragment = part.function?.arguments;
        // A fragment at an index no call was announced at, with neither id nor name, belongs to no call.
        if (!call && !part.id && !part.function?.name) {
          if (typeof fragment === 'string' && fragment !== '') out.push(streamNotice());
          continue;
        }
        // A new id at a busy index is a new call (Ollama and vLLM put parallel calls all at index 0);
        // the same id repeated on every chunk is the same call (§1.7).
        if (!call || (part.id && part.id !== call.id)) {
          call = { id: part.id || `call_${index}`, name: part.function?.name ?? '', args: '' };
          atIndex.set(index, call);
          calls.push(call);
          out.push({ type: 'tool_call_start', callId: call.id, name: call.name });
        } else if (!call.name && part.function?.name) {
          call.name = part.function.name;
        }
        if (typeof fragment === 'string' && fragment !== '') {
          call.args += fragment;
          out.push({ type: 'tool_call_input_delta', callId: call.id, delta: fragment });
        }
      }
      if (choice.finish_reason && finishReason === null) {
        finishReason = choice.finish_reason;
        out.push(...completeAll());
      }
      return out;
    },

    // A body that ends after a finish_reason is complete even without [DONE] (llama.cpp, some proxies);
    // one that ends before it was cut off.
    end(): AiEvent[] {
      if (done) return [];
      return finishReason === null ? end([streamError('malformed_stream')]) : close();
    },
  };
}

// Reads an error body of this API ({"error": {"type", "code", "message"}}) for the transport.
export function classifyChatError(
  status: number,
  _headers: Headers,
  body: string,
): { code: ReturnType<typeof httpErrorCode>; detail?: string } {
  let error: Chunk['error'];
  try {
    error = (JSON.parse(body) as Chunk).error;
  } catch {
    error = undefined;
  }
  return { code: httpErrorCode(status, [error?.code, error?.type]), detail: error?.message };
}

// The request body (§1.2). Tool results are separate `tool` messages right after the assistant turn that
// called them; Chat has no error flag, so a failed result says so in its content.
export function buildChatBody(req: ModelRequest): Record<string, unknown> {
  const messages: Record<string, unknown>[] = req.system ? [{ role: 'system', content: req.system }] : [];
  for (const turn of req.history) {
    const text = turnText(turn);
    if (turn.role === 'assistant') {
      const calls = turn.content.flatMap((b) =>
        b.type === 'tool_call'
          ? [
              {
                id: b.id,
                type: 'function',
                function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
              },
            ]
          : [],
      );
      messages.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      continue;
    }
    for (const b of turn.content) {
      if (b.type === 'tool_result') {
        messages.push({
          role: 'tool',
          tool_call_id: b.callId,
          content: b.isError ? `Error: ${b.output}` : b.output,
        });
      }
    }
    if (text) messages.push({ role: 'user', content: text });
  }
  return {
    model: req.model,
    messages,
    ...(req.tools?.length
      ? {
          tools: req.tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.inputSchema },
          })),
        }
      : {}),
    ...(req.maxOutputTokens ? { max_completion_tokens: req.maxOutputTokens } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}
