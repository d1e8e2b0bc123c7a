// A tool-using turn in a stored conversation (issue 4): resolves `service/model`, offers the mail tools
// (with the user's grants and the run's approval policy on top of each tool's own gate), runs the engine
// against the real provider, and stores the new turns with the outcome in one transaction. A run that
// needs approval ends `interrupted` with its calls stored open; `resume` answers them.

import { BridgeFailure } from '../bridge/dispatch.ts';
import type { Db } from '../db/open.ts';
import { type AskEvent, splitModelRef } from './ask.ts';
import type { prepareConversations } from './conversations.ts';
import { type Answer, type EngineEvent, runEngine } from './engine.ts';
import type { prepareGrants } from './grants.ts';
import { streamModel } from './model-stream.ts';
import type { prepareServices } from './services.ts';
import { mailTools } from './tools/mail-tools.ts';
import type { AnyTool } from './tools/tool.ts';

// What runs without asking, beyond the grants: `none` asks even for reads; `read` lets reads run; `all`
// lets reads and writes run. Send and delete always ask (the engine enforces it whatever this says).
export type ApprovalPolicy = 'none' | 'read' | 'all';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
};

export type AgentEvent = Extract<AskEvent, { type: 'start' }> | EngineEvent;

export function withPolicy(tool: AnyTool, policy: ApprovalPolicy): AnyTool {
  const runsFreely = tool.effect === 'read' ? policy !== 'none' : tool.effect === 'write' && policy === 'all';
  return {
    ...tool,
    gate: (args, provenance) => {
      const own = tool.gate?.(args, provenance) ?? (tool.effect === 'read' ? 'allow' : 'approve');
      if (own === 'deny') return 'deny';
      if (tool.effect === 'read' && policy === 'none') return 'approve';
      return runsFreely ? 'allow' : own;
    },
  };
}

export async function* runAgent(
  deps: Deps,
  request: {
    model: string;
    prompt?: string;
    conversationId?: number;
    answers?: Answer[];
    policy: ApprovalPolicy;
  },
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<AgentEvent, void, undefined> {
  const { service, model } = splitModelRef(request.model);
  const connection = await deps.services.connection(deps.services.idByName(service));
  if (request.conversationId !== undefined && !deps.conversations.exists(request.conversationId)) {
    throw new BridgeFailure('not_found', 'That conversation does not exist.');
  }
  if (request.conversationId === undefined && !request.prompt) {
    throw new BridgeFailure('invalid_request', 'A new conversation needs a prompt.');
  }
  const conversationId =
    request.conversationId ?? deps.conversations.create(request.prompt ?? '', request.model);
  yield { type: 'start', conversationId };

  const tools = mailTools(deps.db).map((t) =>
    withPolicy(deps.grants.withGrants(t, conversationId), request.policy),
  );
  const run = deps.conversations.startRun(conversationId);
  const signal = opts.signal ?? new AbortController().signal;
  let stored = false;
  try {
    for await (const event of runEngine({
      model,
      stream: (req, s) => streamModel(connection, req, { signal: s }),
      history: deps.conversations.history(conversationId),
      ...(request.prompt ? { prompt: request.prompt } : {}),
      tools,
      answers: request.answers ?? [],
      signal,
    })) {
      if (event.type === 'done' || event.type === 'interrupted' || event.type === 'error') {
        const status =
          event.type === 'done' ? 'done' : event.type === 'interrupted' ? 'awaiting_approval' : 'error';
        deps.conversations.appendTurns(
          { id: run, conversationId, status, ...(event.type === 'error' ? { errorCode: event.code } : {}) },
          event.turns,
        );
        stored = true;
      }
      yield event;
    }
  } finally {
    // A consumer that stops reading still leaves the run closed.
    if (!stored)
      deps.conversations.appendTurns(
        { id: run, conversationId, status: 'error', errorCode: 'cancelled' },
        [],
      );
  }
}
