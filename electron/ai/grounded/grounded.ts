// A grounded answer (DESIGN §10, issue 7): a summary of, or an answer about, 1–8 sources, whose citations are
// checked against the sources before anyone sees it. Bounds are checked before any network; one attempt, no
// retry, 45 s in all; the sources reach the model only inside untrusted blocks (DESIGN §8).
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { endpointFor } from '../../../shared/service-url.ts';
import { AiFailure } from '../protocol/errors.ts';
import { authHeaders } from '../providers/model-lists.ts';
import { untrustedNote, wrapUntrusted } from '../safety/untrusted.ts';
import { requestJson, type TransportOptions } from '../transport/transport.ts';
import { checkBounds, checkRequestSize, groundedBounds, type Source } from './bounds.ts';
import { type Checked, checkAnswer } from './citations.ts';
import { groundedWire } from './wire.ts';

export type { Source };
export type GroundedAnswer = Checked & { sources: { id: string; title: string; location?: string }[] };
export type GroundedConnection = { kind: ServiceKind; baseUrl: string; key: string | null };

/**
 * What the model is asked when it is neither a summary nor an answer (a drafted reply, draft-reply.ts): what
 * to do, the user's turn, and untrusted blocks beside the sources that are not sources (they cannot be cited).
 */
export type GroundedTask = {
  instructions: string;
  user: string;
  context?: readonly { id: string; text: string }[];
};

const summaryTask = (question: string | undefined): GroundedTask => ({
  instructions:
    question === undefined
      ? 'Summarise the sources below for the user: the facts, decisions, requests and open questions.'
      : 'Answer the user’s question using only the sources below. If they do not answer it, say so.',
  user: question ?? 'Summarise the sources.',
});

const instructions = (task: GroundedTask) =>
  [
    task.instructions,
    'Cite every claim inline with the id of the source it comes from in square brackets, like [m1].',
    'Reply with one JSON object and nothing else: {"answer": "…", "citations": ["m1", …]}, where',
    '"citations" lists exactly the ids you cited inline.',
    untrustedNote,
  ].join(' ');

/** The system prompt: what to do, then each source as untrusted data, named by its id, then any context. */
function groundedPrompt(sources: readonly Source[], task: GroundedTask): { system: string; user: string } {
  const blocks = sources.map((s) =>
    wrapUntrusted(
      `source:${s.id}`,
      `Source id: ${s.id}\nTitle: ${s.title}${s.location ? `\nLocation: ${s.location}` : ''}\n\n${s.text}`,
      false,
    ),
  );
  const context = (task.context ?? []).map((c) => wrapUntrusted(`context:${c.id}`, c.text, false));
  return { system: `${instructions(task)}\n\n${[...blocks, ...context].join('\n\n')}`, user: task.user };
}

export async function groundedAnswer(
  connection: GroundedConnection,
  model: string,
  request: { sources: readonly Source[]; question?: string; task?: GroundedTask },
  opts: Pick<TransportOptions, 'fetch'> & {
    signal?: AbortSignal;
    /** The ids the answer may cite, when they are not the sources' own (a combined summary cites messages). */
    allowedIds?: readonly string[];
  } = {},
): Promise<GroundedAnswer> {
  const wire = groundedWire[connection.kind];
  if (!wire) throw new AiFailure('unsupported_capability');
  const bound = checkBounds(request.sources, request.question);
  if (bound) throw new AiFailure('invalid_request', { providerDetail: bound });
  const { system, user } = groundedPrompt(request.sources, request.task ?? summaryTask(request.question));
  const body = wire.body(model, system, user);
  const tooBig = checkRequestSize(body);
  if (tooBig) throw new AiFailure('invalid_request', { providerDetail: tooBig });
  const keys = connection.key ? [connection.key] : [];
  const response = await requestJson(
    {
      url: endpointFor(connection.kind, connection.baseUrl),
      headers: authHeaders(connection.kind, connection.key),
      body,
      ...(opts.signal ? { signal: opts.signal } : {}),
      keys,
      classify: wire.classify,
    },
    {
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      maxAttempts: 1,
      connectTimeoutMs: groundedBounds.connectMs,
      totalTimeoutMs: groundedBounds.totalMs,
      maxBytes: groundedBounds.responseBytes,
    },
  );
  const text = wire.text(response);
  if (text === null)
    throw new AiFailure('bad_answer', { providerDetail: 'The response holds no answer text.' });
  const checked = checkAnswer(text, opts.allowedIds ?? request.sources.map((s) => s.id));
  const cited = new Set(checked.citations);
  return {
    ...checked,
    sources: request.sources
      .filter((s) => cited.has(s.id))
      .map((s) => ({ id: s.id, title: s.title, ...(s.location ? { location: s.location } : {}) })),
  };
}
