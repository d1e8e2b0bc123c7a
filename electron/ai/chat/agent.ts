// A tool-using turn in a stored conversation (issue 4): resolves `service/model`, offers the mail tools
// (with the user's grants and the run's approval policy on top of each tool's own gate), runs the engine
// against the real provider, writes every settled call to the audit log, and stores the new turns with the
// outcome in one transaction. A run that needs approval ends `interrupted` with its calls stored open;
// answering them (`resume` in the CLI, `chat:answer` in the app) continues it.

import type { Db } from '../../db/open.ts';
import { prepareIdentities } from '../../mail/identities.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import { AssistantError } from '../assistant-error.ts';
import { connectForMail } from '../model-access.ts';
import { aiErrorMessages } from '../protocol/errors.ts';
import { prepareAudit } from '../safety/audit.ts';
import type { prepareGrants } from '../safety/grants.ts';
import type { prepareServices } from '../services.ts';
import { messageBlock } from '../tools/mail-tools.ts';
import { type AnyTool, callEffect } from '../tools/tool.ts';
import { streamModel } from '../transport/model-stream.ts';
import type { TransportOptions } from '../transport/transport.ts';
import { type AskEvent, budgetFor } from './ask.ts';
import { assistantBrief } from './assistant-brief.ts';
import { auditEntry } from './call-audit.ts';
import type { prepareConversations } from './conversations.ts';
import { type Answer, type EngineEvent, openCalls, runEngine } from './engine.ts';
import { runSignal } from './run-signal.ts';

// What runs without asking, beyond the grants: `none` asks even for reads; `read` lets reads run; `all`
// lets reads and writes run. Send and delete always ask (the engine enforces it whatever this says).
export type ApprovalPolicy = 'none' | 'read' | 'all';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
  /** The mail tools (tools/mail-tools.ts), built once by the app; grants and the policy go on top per run. */
  tools: readonly AnyTool[];
};

export type AgentRequest = {
  model: string;
  prompt?: string;
  conversationId?: number;
  answers?: Answer[];
  /** Message ids quoted as context, sent before the prompt as untrusted blocks. */
  quote?: number[];
  policy: ApprovalPolicy;
};

export type AgentEvent =
  | Extract<AskEvent, { type: 'start' }>
  | { type: 'context'; blocks: string[] }
  | EngineEvent;

function withPolicy(tool: AnyTool, policy: ApprovalPolicy): AnyTool {
  return {
    ...tool,
    gate: (args, provenance) => {
      // The call's own effect: a move into the Trash is a delete, which no policy lets run (DESIGN §7).
      const effect = callEffect(tool, args);
      const runsFreely = effect === 'read' ? policy !== 'none' : effect === 'write' && policy === 'all';
      const own = tool.gate?.(args, provenance) ?? (effect === 'read' ? 'allow' : 'approve');
      if (own === 'deny') return 'deny';
      if (effect === 'read' && policy === 'none') return 'approve';
      return runsFreely ? 'allow' : own;
    },
  };
}

/** The mail tools as a run in `conversationId` offers them: grants and the policy on top of each gate. */
export function agentTools(
  deps: Deps,
  conversationId: number | null,
  policy: ApprovalPolicy,
  plain: readonly AnyTool[] = deps.tools,
): AnyTool[] {
  return plain.map((t) => withPolicy(deps.grants.withGrants(t, conversationId), policy));
}

/** The calls a stored conversation waits for, with each tool, so a caller can show them again. */
export function waitingCalls(deps: Deps, conversationId: number, policy: ApprovalPolicy) {
  const tools = agentTools(deps, conversationId, policy);
  return openCalls(deps.conversations.history(conversationId), tools).map((call) => ({
    call,
    tool: tools.find((t) => t.name === call.name),
  }));
}

export async function* runAgent(
  deps: Deps,
  request: AgentRequest,
  opts: Pick<TransportOptions, 'onRetry' | 'sleep'> & { signal?: AbortSignal } = {},
): AsyncGenerator<AgentEvent, void, undefined> {
  // The mail tools and quoted mail send mail text to the service.
  const { serviceId, model, connection } = await connectForMail(deps.services, request.model);
  if (request.conversationId !== undefined && !deps.conversations.exists(request.conversationId)) {
    throw new AssistantError('not_found', 'That conversation does not exist.');
  }
  if (request.conversationId === undefined && !request.prompt) {
    throw new AssistantError('invalid', 'A new conversation needs a prompt.');
  }
  const context = quotedBlocks(deps.db, request.quote ?? []);
  const conversationId =
    request.conversationId ?? deps.conversations.create(request.prompt ?? '', request.model);
  yield { type: 'start', conversationId };
  if (context.length > 0) yield { type: 'context', blocks: context };

  // The tools without grants and policy are kept too, to tell afterwards who let a call run.
  const plainTools = deps.tools;
  const tools = agentTools(deps, conversationId, request.policy, plainTools);
  const plain = new Map(plainTools.map((t) => [t.name, t]));
  // SECURITY: arguments and results can hold the service's key (a model may echo it); the audit masks it.
  const audit = prepareAudit(deps.db, () => (connection.key ? [connection.key] : []));
  const run = deps.conversations.startRun(conversationId);
  const ending = runSignal(deps.services, serviceId, opts.signal);
  let stored = false;
  // Part of an answer could not be read: the stored answer keeps the mark (DESIGN §6).
  let notice: string | undefined;
  try {
    for await (const raw of runEngine({
      model,
      // This run may read mail, which the user agreed to send to this service: it knows whose mail it is.
      system: assistantBrief({ now: new Date(), addresses: prepareIdentities(deps.db).list() }),
      stream: (req, s) => streamModel(connection, req, { ...opts, signal: s }),
      history: deps.conversations.history(conversationId),
      ...(request.prompt ? { prompt: request.prompt } : {}),
      context,
      tools,
      answers: request.answers ?? [],
      budget: budgetFor(model),
      signal: ending.signal,
    })) {
      const event: EngineEvent =
        raw.type === 'error' && raw.code === 'cancelled' && ending.stale()
          ? { ...raw, code: 'stale', message: aiErrorMessages.stale }
          : raw;
      if (event.type === 'tool_result') {
        audit.record(auditEntry(deps.grants, event, plain.get(event.name), { conversationId, runId: run }));
      }
      if (event.type === 'notice') notice = event.code;
      if (event.type === 'done' || event.type === 'interrupted' || event.type === 'error') {
        const status =
          event.type === 'done' ? 'done' : event.type === 'interrupted' ? 'awaiting_approval' : 'error';
        deps.conversations.appendTurns(
          {
            id: run,
            conversationId,
            status,
            ...(event.type === 'error' ? { errorCode: event.code } : {}),
            ...(notice ? { noticeCode: notice } : {}),
          },
          event.turns,
          event.usage,
        );
        stored = true;
      }
      yield event;
    }
  } finally {
    ending.dispose();
    // A consumer that stops reading still leaves the run closed.
    if (!stored)
      deps.conversations.appendTurns(
        { id: run, conversationId, status: 'error', errorCode: 'cancelled' },
        [],
      );
  }
}

// SECURITY: quoted mail is the sender's words, not the user's: it reaches the model only as untrusted
// blocks (hidden text removed), and provenance counts it as untrusted (DESIGN §8).
function quotedBlocks(db: Db, ids: readonly number[]): string[] {
  const queries = prepareQueries(db);
  return ids.map((id) => {
    const m = queries.message(id);
    if (!m) throw new AssistantError('not_found', `Message ${id} is not in the mailbox.`);
    return messageBlock(m).text;
  });
}
