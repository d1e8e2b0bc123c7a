// The chat channels of the bridge: `chat:send` starts a turn whose events stream to the page (Stop is
// `run:cancel`), `chat:list` and `chat:history` read what is stored.
import type { ChatTurn, StreamEvent } from '../../shared/contract.ts';
import { BridgeFailure, type Handlers } from '../bridge/dispatch.ts';
import type { StreamHub } from '../bridge/streams.ts';
import type { Log } from '../log.ts';
import { type AskEvent, ask } from './ask.ts';
import type { prepareConversations } from './conversations.ts';
import { AiErrorCode, aiErrorMessages } from './protocol/errors.ts';
import { turnText } from './protocol/request.ts';
import type { prepareServices } from './services.ts';

type Deps = {
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  streams: StreamHub;
  log: Log;
};

export function chatHandlers(deps: Deps): Pick<Handlers, 'chat:send' | 'chat:list' | 'chat:history'> {
  return {
    'chat:send': (r) => {
      const controller = new AbortController();
      const streamId = deps.streams.start(() => controller.abort());
      const emit = (event: StreamEvent, final = false) => deps.streams.emit(streamId, event, final);
      // Runs after this call has returned the streamId, so the page can subscribe first.
      setImmediate(() => void relay(deps, r, controller.signal, emit));
      return { streamId };
    },
    'chat:list': () => deps.conversations.list(),
    'chat:history': (r) => {
      const conversation = deps.conversations.summary(r.conversationId);
      if (!conversation) throw new BridgeFailure('not_found', 'That conversation does not exist.');
      const notes = deps.conversations.notes(r.conversationId);
      const turns: ChatTurn[] = deps.conversations.history(r.conversationId).map((t, i) => {
        const note = notes[i];
        const code = AiErrorCode.safeParse(note?.ended?.code);
        return {
          role: t.role,
          text: turnText(t),
          usage: note?.usage ?? null,
          ended: note?.ended
            ? {
                outcome: note.ended.outcome,
                code: code.success ? code.data : 'internal',
                message: code.success ? aiErrorMessages[code.data] : 'The answer failed.',
              }
            : null,
        };
      });
      return { conversation, turns };
    },
  };
}

async function relay(
  deps: Deps,
  request: { model: string; prompt: string; conversationId?: number },
  signal: AbortSignal,
  emit: (event: StreamEvent, final?: boolean) => void,
): Promise<void> {
  // The final event is sent only after `ask` has returned, that is after the turn is stored: a page
  // that hears "done" and reloads the conversation finds it.
  let final: StreamEvent | null = null;
  try {
    const onRetry = ({ waitMs, code }: { waitMs: number; code: AiErrorCode }) =>
      emit({ type: 'chat_retry', code, seconds: Math.ceil(waitMs / 1000) });
    for await (const e of ask(deps, request, { signal, onRetry })) {
      const event = toStreamEvent(e);
      if (!event) continue;
      if (event.type === 'chat_done' || event.type === 'chat_error') final = event;
      else emit(event);
    }
  } catch (e) {
    if (e instanceof BridgeFailure) final = { type: 'chat_error', code: e.code, message: e.message };
    else {
      deps.log.error('chat_send', e);
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

function toStreamEvent(e: AskEvent): StreamEvent | null {
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
        : null;
    default:
      return null;
  }
}
