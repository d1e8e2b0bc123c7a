// One question to a model in a stored conversation, without tools (the engine adds those): resolve
// `service/model`, send the stored history plus the new prompt, stream the answer, and commit the turn
// — what arrived is kept even when the run fails or is stopped.
import { AssistantError } from '../assistant-error.ts';
import { connectForMail, connectForOwnWords } from '../model-access.ts';
import { trimHistory } from '../protocol/budget.ts';
import { capabilitiesFor } from '../protocol/capabilities.ts';
import { aiErrorMessages } from '../protocol/errors.ts';
import type { AiEvent } from '../protocol/events.ts';
import { type Block, mergeAdjacentTurns, type Turn } from '../protocol/messages.ts';
import { isUntrustedBlock } from '../safety/untrusted.ts';
import type { prepareServices } from '../services.ts';
import { streamModel } from '../transport/model-stream.ts';
import type { TransportOptions } from '../transport/transport.ts';
import { assistantBrief } from './assistant-brief.ts';
import type { prepareConversations, Usage } from './conversations.ts';
import { runSignal } from './run-signal.ts';

export type AskEvent = { type: 'start'; conversationId: number } | AiEvent;

// An unknown model's window is assumed small: trimming too much loses old context, trimming too little
// fails the request. Output room kept free in the window.
const unknownWindowTokens = 32_768;
const reserveOutputTokens = 4_096;

/** The window a request to `model` is trimmed to (DESIGN §6 "Budget"). */
export function budgetFor(model: string): { maxInputTokens: number; reserveOutputTokens: number } {
  return {
    maxInputTokens: capabilitiesFor(model).maxInputTokens ?? unknownWindowTokens,
    reserveOutputTokens,
  };
}

type Deps = {
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
};

export async function* ask(
  deps: Deps,
  request: { model: string; prompt: string; conversationId?: number },
  opts: Pick<TransportOptions, 'onRetry' | 'sleep'> & { signal?: AbortSignal } = {},
): AsyncGenerator<AskEvent, void, undefined> {
  // A conversation that used the mail tools or quoted mail sends that mail again with every turn.
  const stored =
    request.conversationId === undefined ? [] : deps.conversations.history(request.conversationId);
  const connect = holdsMail(stored) ? connectForMail : connectForOwnWords;
  const { serviceId, model, connection } = await connect(deps.services, request.model);
  if (request.conversationId !== undefined && !deps.conversations.exists(request.conversationId)) {
    throw new AssistantError('not_found', 'That conversation does not exist.');
  }
  const conversationId = request.conversationId ?? deps.conversations.create(request.prompt, request.model);
  yield { type: 'start', conversationId };

  const user: Turn = { role: 'user', content: [{ type: 'text', text: request.prompt }] };
  // Only what is sent is trimmed; the stored conversation keeps every turn (DESIGN §6 "Budget").
  const trimmed = trimHistory(
    mergeAdjacentTurns([...deps.conversations.history(conversationId), user]),
    budgetFor(model),
  );
  const run = deps.conversations.startRun(conversationId);
  const ending = runSignal(deps.services, serviceId, opts.signal);
  let text = '';
  let usage: Usage | null = null;
  let status: 'done' | 'error' | 'aborted' = 'error';
  let errorCode: string | undefined;
  // A non-terminal error: part of the answer could not be read, and the stored answer says so (DESIGN §6).
  let noticeCode: string | undefined;
  try {
    const events: AsyncIterable<AiEvent> = trimmed.ok
      ? streamModel(
          connection,
          // Plain chat: the date, and nothing from the mailbox (assistant-brief.ts).
          { model, system: assistantBrief({ now: new Date() }), history: trimmed.history },
          { ...opts, signal: ending.signal },
        )
      : overflow();
    for await (const raw of events) {
      const event: AiEvent = raw.type === 'aborted' && ending.stale() ? failure('stale') : raw;
      if (event.type === 'text_delta') text += event.text;
      if (event.type === 'usage')
        usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
      if (event.type === 'message_stop') status = 'done';
      if (event.type === 'aborted') status = 'aborted';
      if (event.type === 'error' && event.terminal) errorCode = event.code;
      if (event.type === 'error' && !event.terminal) noticeCode = event.code;
      yield event;
    }
  } finally {
    ending.dispose();
    // Also when the consumer stops reading: the turn is still stored.
    const answer: Block[] = text ? [{ type: 'text', text }] : [];
    deps.conversations.commitTurn(
      { id: run, conversationId, status, errorCode, ...(noticeCode ? { noticeCode } : {}) },
      user,
      { role: 'assistant', content: answer },
      usage,
    );
  }
}

/**
 * SECURITY: stored turns hold mail when a tool was called (its arguments and results are the mailbox's) or
 * mail was quoted; the answers written from them repeat it. Plain chat over such a history is not only the
 * user's own words, so it needs the consent a tool run needs (DESIGN §5), even with the tools off now.
 */
function holdsMail(history: readonly Turn[]): boolean {
  return history.some((t) => t.content.some((b) => b.type !== 'text' || isUntrustedBlock(b.text)));
}

async function* overflow(): AsyncGenerator<AiEvent> {
  yield failure('context_overflow');
}

function failure(code: 'context_overflow' | 'stale'): AiEvent {
  return { type: 'error', code, message: aiErrorMessages[code], terminal: true };
}
