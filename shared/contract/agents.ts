// Requests from outside agents (`skimmer mcp`, DESIGN §13 "Outside agents") that wait for the user in the app:
// each is one tool call on the approval card, with the agent's name as it gave it and when it stops waiting.
import { z } from 'zod';
import { ApprovalCall, ArgsHash } from './approvals.ts';
import { EpochMs, Id } from './fields.ts';

export const AgentRequestView = z.object({
  id: Id,
  // The client's own name for itself (its MCP clientInfo): shown as the agent's words, not as a fact.
  client: z.string(),
  askedAt: EpochMs,
  expiresAt: EpochMs,
  call: ApprovalCall,
});
export type AgentRequestView = z.infer<typeof AgentRequestView>;

export const agentChannels = {
  'agent:pending': {
    request: z.object({}).strict(),
    response: z.array(AgentRequestView),
  },
  // SECURITY: an answer names the request and the hash of the arguments the card showed (as chat:answer).
  'agent:answer': {
    request: z
      .object({
        id: Id,
        argsHash: ArgsHash,
        decision: z.enum(['approve', 'deny']),
      })
      .strict(),
    response: z.object({ answered: z.literal(true) }),
  },
  // A stream of `agent_requests` events: what waits now, whenever that changes, and `changed` when an agent's
  // call changed the mail (so the page reloads it and offers Undo).
  'agent:watch': {
    request: z.object({}).strict(),
    response: z.object({ streamId: z.string() }),
  },
} as const;
