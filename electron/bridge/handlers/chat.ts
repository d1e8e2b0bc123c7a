// The chat channels of the bridge: `chat:send` starts a turn whose events stream to the page (Stop is
// `run:cancel`), `chat:answer` resumes a run that waits for the user's approval, `chat:list` and
// `chat:history` read what is stored. A turn with tools runs through the engine (agent.ts); without, it is
// one plain answer (ask.ts).
import type { ChatTurn, StreamEvent } from '../../../shared/contract/index.ts';
import { type ApprovalPolicy, runAgent, waitingCalls } from '../../ai/chat/agent.ts';
import { ask } from '../../ai/chat/ask.ts';
import { agentMapper, fromAsk, mapEvents } from '../../ai/chat/chat-events.ts';
import { approvalView, chatBlocks, chatText } from '../../ai/chat/chat-views.ts';
import type { prepareConversations } from '../../ai/chat/conversations.ts';
import { AiErrorCode, aiErrorMessages } from '../../ai/protocol/errors.ts';
import { noticeMessage } from '../../ai/protocol/events.ts';
import type { prepareGrants } from '../../ai/safety/grants.ts';
import type { prepareServices } from '../../ai/services.ts';
import type { AnyTool } from '../../ai/tools/tool.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import type { Handlers } from '../dispatch.ts';
import { BridgeFailure, toFailure } from '../errors.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
  streams: StreamHub;
  log: Log;
  /** The mail tools, built once by the app. */
  tools: readonly AnyTool[];
};

// In the app, reads run and everything else asks, unless the user granted it (DESIGN §7).
const chatPolicy: ApprovalPolicy = 'read';

type Emit = (event: StreamEvent, final?: boolean) => void;
type Retry = { waitMs: number; code: AiErrorCode };

export function chatHandlers(
  deps: Deps,
): Pick<Handlers, 'chat:send' | 'chat:answer' | 'chat:list' | 'chat:history'> {
  // Starts a stream and runs `produce` after this call has returned the streamId, so the page can subscribe.
  function stream(produce: (signal: AbortSignal, emit: Emit) => AsyncIterable<StreamEvent>) {
    const controller = new AbortController();
    const streamId = deps.streams.start(() => controller.abort());
    const emit: Emit = (event, final = false) => deps.streams.emit(streamId, event, final);
    setImmediate(() => void relay(deps.log, produce(controller.signal, emit), emit));
    return { streamId };
  }
  const onRetry = (emit: Emit) => (r: Retry) =>
    emit({ type: 'chat_retry', code: r.code, seconds: Math.ceil(r.waitMs / 1000) });

  return {
    'chat:send': (r) =>
      stream((signal, emit) => {
        if (!r.tools) {
          if (r.quote) throw new BridgeFailure('invalid_request', 'Quoting mail needs the mail tools on.');
          return mapEvents(ask(deps, r, { signal, onRetry: onRetry(emit) }), fromAsk);
        }
        const events = runAgent(
          deps,
          {
            model: r.model,
            prompt: r.prompt,
            ...(r.conversationId !== undefined ? { conversationId: r.conversationId } : {}),
            ...(r.quote ? { quote: r.quote } : {}),
            policy: chatPolicy,
          },
          { signal, onRetry: onRetry(emit) },
        );
        return mapEvents(events, agentMapper(deps, chatPolicy));
      }),

    'chat:answer': (r) => {
      const conversation = deps.conversations.summary(r.conversationId);
      if (!conversation) throw new BridgeFailure('not_found', 'That conversation does not exist.');
      const waiting = waitingCalls(deps, r.conversationId, chatPolicy);
      if (waiting.length === 0) {
        throw new BridgeFailure('invalid_request', 'This conversation is not waiting for an answer.');
      }
      // SECURITY: an answer names a waiting call by Skimmer's id and the hash of the arguments the card
      // showed; one for any other call, or for these arguments changed, is refused (DESIGN §7).
      const waitingFor = (a: { id: string; argsHash: string }) =>
        waiting.find((w) => w.call.id === a.id && w.call.argsHash === a.argsHash);
      for (const a of r.answers) {
        if (!waitingFor(a)) {
          throw new BridgeFailure('invalid_request', 'One of the answers is for a call that is not waiting.');
        }
      }
      // A grant is stored before the run resumes, so it covers the calls that follow in this run too.
      for (const a of r.answers) {
        const tool = waitingFor(a)?.tool;
        if (a.decision === 'approve' && a.grant !== 'once' && tool) {
          deps.grants.grant(tool.name, tool.effect, a.grant, r.conversationId);
        }
      }
      const answers = r.answers.map((a) => ({
        id: a.id,
        argsHash: a.argsHash,
        decision: a.decision,
        ...(a.reason ? { reason: a.reason } : {}),
      }));
      return stream((signal, emit) =>
        mapEvents(
          runAgent(
            deps,
            {
              model: r.model ?? conversation.model,
              conversationId: r.conversationId,
              answers,
              policy: chatPolicy,
            },
            { signal, onRetry: onRetry(emit) },
          ),
          agentMapper(deps, chatPolicy),
        ),
      );
    },

    'chat:list': () => deps.conversations.list(),

    'chat:history': (r) => {
      const conversation = deps.conversations.summary(r.conversationId);
      if (!conversation) throw new BridgeFailure('not_found', 'That conversation does not exist.');
      const notes = deps.conversations.notes(r.conversationId);
      const turns: ChatTurn[] = deps.conversations.history(r.conversationId).map((t, i) => {
        const note = notes[i];
        const code = AiErrorCode.safeParse(note?.ended?.code);
        const blocks = chatBlocks(t);
        const notice = AiErrorCode.safeParse(note?.notice);
        return {
          role: t.role,
          text: chatText(blocks),
          blocks,
          usage: note?.usage ?? null,
          ended: note?.ended
            ? {
                outcome: note.ended.outcome,
                code: code.success ? code.data : 'internal',
                message: code.success ? aiErrorMessages[code.data] : 'The answer failed.',
              }
            : null,
          ...(notice.success ? { notice: { code: notice.data, message: noticeMessage } } : {}),
        };
      });
      const pending = waitingCalls(deps, r.conversationId, chatPolicy).map((w) =>
        approvalView(w.call, w.tool),
      );
      return { conversation, turns, pending };
    },
  };
}

const isFinal = (e: StreamEvent) =>
  e.type === 'chat_done' || e.type === 'chat_error' || e.type === 'chat_interrupted';

async function relay(log: Log, events: AsyncIterable<StreamEvent>, emit: Emit): Promise<void> {
  // The final event is sent only after the run has returned, that is after the turn is stored: a page that
  // hears "done" and reloads the conversation finds it.
  let final: StreamEvent | null = null;
  try {
    for await (const event of events) {
      if (isFinal(event)) final = event;
      else emit(event);
    }
  } catch (e) {
    const failure = toFailure(e);
    if (failure) final = { type: 'chat_error', ...failure };
    else {
      log.error('chat_send', e);
      final = {
        type: 'chat_error',
        code: 'internal',
        message: 'Something went wrong inside Skimmer; the details are in the log.',
      };
    }
  }
  emit(
    final ?? { type: 'chat_error', code: 'internal', message: 'The answer ended without a result.' },
    true,
  );
}
