// A chat turn's events as the page's stream events (shared/contract/streams.ts): the plain answer's (ask.ts)
// and the engine's (agent.ts). Errors keep Skimmer's code and sentence; the provider's detail rides along.
import type { StreamEvent } from '../../../shared/contract/index.ts';
import { noticeMessage } from '../protocol/events.ts';
import { untrustedParts } from '../safety/untrusted.ts';
import { type AgentEvent, type ApprovalPolicy, agentTools } from './agent.ts';
import type { AskEvent } from './ask.ts';
import { approvalView, toolResultView } from './chat-views.ts';

type ToolDeps = Parameters<typeof agentTools>[0];

export async function* mapEvents<E>(
  events: AsyncIterable<E>,
  map: (e: E) => StreamEvent | null,
): AsyncGenerator<StreamEvent> {
  for await (const e of events) {
    const mapped = map(e);
    if (mapped) yield mapped;
  }
}

export function fromAsk(e: AskEvent): StreamEvent | null {
  switch (e.type) {
    case 'start':
      return { type: 'chat_start', conversationId: e.conversationId };
    case 'text_delta':
      return { type: 'chat_text', text: e.text };
    case 'usage':
      return { type: 'chat_usage', inputTokens: e.inputTokens, outputTokens: e.outputTokens };
    case 'message_stop':
      return { type: 'chat_done', stopReason: e.stopReason };
    case 'aborted':
      return { type: 'chat_error', code: 'cancelled', message: 'Stopped. What arrived is kept.' };
    case 'error':
      return e.terminal
        ? {
            type: 'chat_error',
            code: e.code,
            message: e.message,
            ...(e.providerDetail ? { detail: e.providerDetail } : {}),
          }
        : { type: 'chat_notice', code: e.code, message: noticeMessage };
    default:
      return null;
  }
}

// Stateful: the interrupted event needs the conversation that `start` named, and its tools for the previews.
export function agentMapper(deps: ToolDeps, policy: ApprovalPolicy): (e: AgentEvent) => StreamEvent | null {
  let conversationId = 0;
  return (e) => {
    if (e.type === 'start') conversationId = e.conversationId;
    return fromAgent(deps, policy, e, conversationId);
  };
}

function fromAgent(
  deps: ToolDeps,
  policy: ApprovalPolicy,
  e: AgentEvent,
  conversationId: number,
): StreamEvent | null {
  switch (e.type) {
    case 'start':
      return { type: 'chat_start', conversationId: e.conversationId };
    case 'context':
      return { type: 'chat_context', parts: e.blocks.flatMap((b) => untrustedParts(b).parts) };
    case 'text':
      return { type: 'chat_text', text: e.text };
    case 'tool_call':
      return { type: 'chat_tool_call', id: e.id, name: e.name, args: e.args };
    case 'tool_result':
      return { type: 'chat_tool_result', ...toolResultView(e) };
    case 'interrupted': {
      const tools = new Map(agentTools(deps, conversationId, policy).map((t) => [t.name, t]));
      return {
        type: 'chat_interrupted',
        conversationId,
        calls: e.calls.map((c) => approvalView(c, tools.get(c.name))),
      };
    }
    case 'usage':
      return { type: 'chat_usage', inputTokens: e.inputTokens, outputTokens: e.outputTokens };
    case 'notice':
      return { type: 'chat_notice', code: e.code, message: e.message };
    case 'done':
      return { type: 'chat_done', stopReason: 'end_turn' };
    case 'error':
      return {
        type: 'chat_error',
        // `max_turns` is the engine's own; to the page it is an answer that did not complete.
        code: e.code === 'max_turns' ? 'incomplete' : e.code,
        message: e.code === 'cancelled' ? 'Stopped. What arrived is kept.' : e.message,
        ...(e.detail ? { detail: e.detail } : {}),
      };
  }
}
