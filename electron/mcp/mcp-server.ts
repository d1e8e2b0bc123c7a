// `skimmer mcp` (DESIGN §13, "Outside agents"): the mailbox offered to an outside agent over the Model Context
// Protocol, behind the gates the app's own assistant passes. Each tools/call is checked by the one call path
// (ai/chat/call-gate.ts) with the assistant's tools, grants and policy (ai/chat/agent.ts `agentTools`), and
// every call, however it ends, is one audit entry naming the client.
//
// Decisions taken here:
// - The agent's words are not the user's. Skimmer never sees what the user told the agent, so nothing an
//   agent sends counts as written by the user: every address or link in a change is one the user never wrote,
//   and such a change always asks (gateDecision). Whatever a read returned this session is untrusted, as in
//   a chat (provenance.ts).
// - Grants: an "always" grant the user gave in the app covers an agent's write as it covers the assistant's;
//   a grant for one conversation covers nothing here, and an agent's approval is for that call only.
// - Asking: through elicitation when the client declared it (the client shows Skimmer's preview, accept runs
//   the call, decline or cancel refuses it), else on a card in the running app (agent-requests.ts). A send or
//   a delete goes to the app's card even then, unless the user chose `--approve-in client`: a client's accept
//   need not be a person's. No answer within the timeout is a refusal; with no app running the call is refused
//   at once, saying why.
// - While a call waits, a client that asked for progress hears from it every 10 s, so its own request timeout
//   (60 s in the SDK's client) does not end the wait first.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalCall } from '../../shared/contract/index.ts';
import { agentTools } from '../ai/chat/agent.ts';
import { auditEntry } from '../ai/chat/call-audit.ts';
import { checkCall, runTool } from '../ai/chat/call-gate.ts';
import { argsHash, newCallId } from '../ai/chat/call-ids.ts';
import { approvalView } from '../ai/chat/chat-views.ts';
import type { prepareConversations } from '../ai/chat/conversations.ts';
import { DECLINED, type SettledCall } from '../ai/chat/engine.ts';
import { prepareAudit } from '../ai/safety/audit.ts';
import type { prepareGrants } from '../ai/safety/grants.ts';
import { ProvenanceTracker } from '../ai/safety/provenance.ts';
import { untrustedNote } from '../ai/safety/untrusted.ts';
import type { prepareServices } from '../ai/services.ts';
import type { AnyTool, CallDecision, Provenance } from '../ai/tools/tool.ts';
import type { Db } from '../db/open.ts';
import type { KeyVault } from '../secrets/key-vault.ts';
import { prepareAgentRequests } from './agent-requests.ts';
import { appRunning } from './app-presence.ts';
import { approvalMessage, clientName } from './approval-text.ts';
import { mcpTool } from './mcp-tools.ts';

type Deps = {
  db: Db;
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
  /** The mail tools, as the app built them (`skimmer mcp` is a command of its own process: its reads run here). */
  tools: readonly AnyTool[];
  /** The saved secrets, only to mask them on the card an agent's call waits at. */
  vault: Pick<KeyVault, 'values'>;
};

export type McpOptions = {
  version: string;
  /** Offer only the tools that read. */
  readOnly: boolean;
  /** How long a call waits for the user's answer; then it is refused. */
  approvalTimeoutMs: number;
  /**
   * Where a send or a delete is approved: `app`, on the running app's card only; `client`, through elicitation
   * when the client declared it, as a write is. Writes use elicitation either way.
   */
  approveIn: ApproveIn;
  /** How often a waiting call looks at its row. */
  pollMs?: number;
};

export type ApproveIn = 'app' | 'client';

export const defaultApprovalTimeoutMs = 5 * 60_000;
const progressEveryMs = 10_000;

const instructions = [
  "Skimmer's mailbox: search and read the user's mail, and change it through Skimmer's approvals.",
  'Calls that change, send or delete mail may wait for the user to approve them, in your client or in the',
  "Skimmer app; a refusal is the user's answer, not an error to retry.",
  untrustedNote,
].join(' ');

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Outcome = { decision: CallDecision; answered: boolean; output: string; isError: boolean };

export function createMcpServer(deps: Deps, options: McpOptions): { server: Server; close(): void } {
  const pollMs = options.pollMs ?? 200;
  const allTools = deps.tools;
  const plainTools = allTools.filter((t) => !options.readOnly || t.effect === 'read');
  const plain = new Map(plainTools.map((t) => [t.name, t]));
  // The assistant's tools with the app's chat policy (reads run, the rest asks unless granted), no conversation.
  const offered = new Map(agentTools(deps, null, 'read', plainTools).map((t) => [t.name, t]));
  const listed = plainTools.map(mcpTool);
  const audit = prepareAudit(deps.db, () => []);
  const requests = prepareAgentRequests(deps.db);
  // SECURITY: the agent's words are never the user's; everything a read returned is untrusted.
  const provenance = new ProvenanceTracker([], undefined);
  const takenIds = new Set<string>();
  const waiting = new Set<number>();
  let closed = false;

  const server = new Server(
    { name: 'skimmer', title: 'Skimmer', version: options.version },
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  const client = () => clientName(server.getClientVersion());

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const input = request.params.arguments ?? {};
    const id = newCallId(takenIds);
    takenIds.add(id);
    const tool = offered.get(name);
    const record = (outcome: Outcome, args: unknown, origin: Provenance | null) => {
      const settled: SettledCall = { id, name, ...outcome, args, provenance: origin };
      audit.record(
        auditEntry(deps.grants, settled, plain.get(name), {
          conversationId: null,
          runId: null,
          client: client(),
        }),
      );
    };
    const checked = checkCall(offered, name, input, provenance);
    if (checked.kind === 'invalid') {
      record({ decision: 'invalid', answered: false, output: checked.output, isError: true }, input, null);
      // MCP spec, "Tools: error handling": an unknown tool is a protocol error; bad arguments are a tool result
      // the model can read and correct.
      if (!tool) {
        const why =
          options.readOnly && allTools.some((t) => t.name === name)
            ? ' (skimmer mcp --read-only offers only reads)'
            : '';
        throw new McpError(ErrorCode.InvalidParams, `Skimmer has no tool named ${name}${why}.`);
      }
      return result(checked.output, true);
    }
    const { args, provenance: origin, gate } = checked;

    let answered = false;
    if (gate === 'deny') {
      record({ decision: 'auto-denied', answered: false, output: DECLINED, isError: true }, args, origin);
      return result(DECLINED, true);
    }
    if (gate === 'approve') {
      const card = approvalView(
        { id, argsHash: argsHash(args), name, args, provenance: origin, held: false },
        checked.tool,
      );
      const answer = await ask(card, extra);
      if (answer.decision !== 'approved') {
        record(answer, args, origin);
        return result(answer.output, true);
      }
      answered = true;
    }
    const ran = await runTool(checked.tool, args, extra.signal, provenance);
    record(
      { decision: answered ? 'approved' : 'allowed', answered, output: ran.output, isError: ran.isError },
      args,
      origin,
    );
    return result(ran.output, ran.isError);
  });

  /** The user's answer to a call the gate asks about; `approved` lets it run. */
  async function ask(card: ApprovalCall, extra: Extra): Promise<Outcome> {
    const refused = (output: string, answeredByUser: boolean): Outcome => ({
      decision: 'denied',
      answered: answeredByUser,
      output,
      isError: true,
    });
    // SECURITY: a client's "accept" need not come from a person: clients can accept tool calls and
    // elicitations by themselves (auto-approve modes), and an agent an email took over may run in one. A send
    // cannot be taken back once it is out, and a delete takes mail away; so, unless the user chose to answer
    // them in the client (`--approve-in client`), they are approved only on the app's card, where the client
    // has no say.
    const inClient = options.approveIn === 'client' || (card.effect !== 'send' && card.effect !== 'delete');
    if (inClient && server.getClientCapabilities()?.elicitation?.form) {
      try {
        const reply = await server.elicitInput(
          {
            mode: 'form',
            message: approvalMessage(card, client()),
            requestedSchema: { type: 'object', properties: {} },
          },
          { signal: extra.signal, timeout: options.approvalTimeoutMs },
        );
        if (reply.action === 'accept')
          return { decision: 'approved', answered: true, output: '', isError: false };
        return refused(DECLINED, true);
      } catch {
        // No answer in time, or the client could not ask: nobody approved it.
        return refused(noAnswer(options.approvalTimeoutMs), false);
      }
    }
    if (!appRunning(deps.db)) {
      return refused(
        'This needs your approval in the Skimmer app, and Skimmer is not open. Open Skimmer, then try again; ' +
          'the request will wait there for your answer.',
        false,
      );
    }
    const rowId = requests.ask({
      client: client(),
      callId: card.id,
      tool: card.name,
      effect: card.effect === 'read' ? 'write' : card.effect,
      args: card.args,
      argsHash: card.argsHash,
      provenance: card.provenance,
      preview: card.preview,
      timeoutMs: options.approvalTimeoutMs,
      // SECURITY: the card's copy is stored; the secrets saved in this Skimmer are masked in it, by value.
      keys: await deps.vault.values(),
    });
    waiting.add(rowId);
    const token = extra._meta?.progressToken;
    const started = Date.now();
    let lastProgress = started;
    try {
      for (;;) {
        const state = requests.state(rowId);
        if (state === 'approved') return { decision: 'approved', answered: true, output: '', isError: false };
        if (state === 'denied') return refused(DECLINED, true);
        if (state === 'expired') return refused(noAnswer(options.approvalTimeoutMs), false);
        if (state === 'withdrawn' || closed || extra.signal.aborted) {
          requests.withdraw(rowId);
          return { decision: 'cancelled', answered: false, output: 'The call was cancelled.', isError: true };
        }
        if (token !== undefined && Date.now() - lastProgress >= progressEveryMs) {
          lastProgress = Date.now();
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress: Math.floor((lastProgress - started) / 1000),
                message: 'Waiting for your answer in Skimmer.',
              },
            })
            .catch(() => {});
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    } finally {
      waiting.delete(rowId);
    }
  }

  return {
    server,
    // The agent went away: whatever still waits disappears from the app's card.
    close() {
      closed = true;
      for (const rowId of waiting) requests.withdraw(rowId);
    },
  };
}

function noAnswer(timeoutMs: number): string {
  const minutes = timeoutMs / 60_000;
  const span =
    minutes >= 1
      ? `${Math.round(minutes)} minute${Math.round(minutes) === 1 ? '' : 's'}`
      : `${Math.round(timeoutMs / 1000)} seconds`;
  return `Nobody approved this within ${span}, so Skimmer did not do it.`;
}

function result(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}
