// One model turn as neutral events (DESIGN §6): picks the provider for the service's kind, builds its
// body, sends it through the transport and maps the frames. Every way a turn can end becomes exactly
// one terminal event: `message_stop`, a terminal `error`, or `aborted` when the user pressed Stop.
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { endpointFor } from '../../../shared/service-url.ts';
import { type AiErrorCode, AiFailure, aiErrorMessages } from '../protocol/errors.ts';
import { type AiEvent, isTerminal } from '../protocol/events.ts';
import type { ModelRequest } from '../protocol/request.ts';
import { toWireIds } from '../protocol/wire-ids.ts';
import { buildAnthropicBody, classifyAnthropicError, createAnthropicMapper } from '../providers/anthropic.ts';
import { authHeaders } from '../providers/model-lists.ts';
import { buildChatBody, classifyChatError, createChatMapper } from '../providers/openai-chat.ts';
import {
  buildResponsesBody,
  classifyResponsesError,
  createResponsesMapper,
} from '../providers/openai-responses.ts';
import type { StreamMapper } from '../providers/stream-parts.ts';
import { streamSse, type TransportOptions } from './transport.ts';

export type Connection = { kind: ServiceKind; baseUrl: string; key: string | null };

type Provider = {
  body: (req: ModelRequest) => Record<string, unknown>;
  mapper: (keys: readonly string[]) => StreamMapper;
  classify: (status: number, headers: Headers, body: string) => ReturnType<typeof classifyChatError>;
};

const chatProviders: Partial<Record<ServiceKind, Provider>> = {
  openai: { body: buildChatBody, mapper: createChatMapper, classify: classifyChatError },
  'openai-responses': {
    body: buildResponsesBody,
    mapper: createResponsesMapper,
    classify: classifyResponsesError,
  },
  anthropic: { body: buildAnthropicBody, mapper: createAnthropicMapper, classify: classifyAnthropicError },
};

export async function* streamModel(
  connection: Connection,
  request: ModelRequest,
  opts: TransportOptions & { signal?: AbortSignal } = {},
): AsyncGenerator<AiEvent, void, undefined> {
  const provider = chatProviders[connection.kind];
  if (!provider) {
    // The decision kinds answer judge questions, not chat (DESIGN §9).
    yield failed('unsupported_capability');
    return;
  }
  const keys = connection.key ? [connection.key] : [];
  const mapper = provider.mapper(keys);
  try {
    const frames = streamSse(
      {
        url: endpointFor(connection.kind, connection.baseUrl),
        headers: authHeaders(connection.kind, connection.key),
        // Calls go out under the ids their provider can pair, never an ambiguous one (DESIGN §7).
        body: provider.body({ ...request, history: toWireIds(request.history) }),
        signal: opts.signal,
        keys,
        classify: provider.classify,
      },
      opts,
    );
    for await (const frame of frames) {
      for (const event of mapper.frame(frame)) {
        // Stop wins over anything already buffered: after it, only `aborted`.
        if (opts.signal?.aborted) break;
        yield event;
        if (isTerminal(event)) return;
      }
      if (opts.signal?.aborted) {
        yield { type: 'aborted' };
        return;
      }
    }
    yield* mapper.end();
  } catch (e) {
    if (opts.signal?.aborted || (e instanceof AiFailure && e.code === 'cancelled')) {
      yield { type: 'aborted' };
      return;
    }
    if (e instanceof AiFailure) {
      yield failed(e.code, e.providerDetail);
      return;
    }
    throw e;
  }
}

function failed(code: AiErrorCode, providerDetail?: string): AiEvent {
  return {
    type: 'error',
    code,
    message: aiErrorMessages[code],
    ...(providerDetail ? { providerDetail } : {}),
    terminal: true,
  };
}
