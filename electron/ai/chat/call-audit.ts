// What the audit log keeps of one settled call (DESIGN §7), for the in-app assistant (agent.ts) and for an
// outside agent through `skimmer mcp` (electron/mcp/) alike: who decided, what it did, and where it came from.
import type { AuditEntry } from '../safety/audit.ts';
import type { prepareGrants } from '../safety/grants.ts';
import { untrustedParts } from '../safety/untrusted.ts';
import { type AnyTool, callEffect } from '../tools/tool.ts';
import type { SettledCall } from './engine.ts';

/** Where a call was made: a conversation's run, or an outside agent's session (`client`, its name). */
type CallPlace = { conversationId: number | null; runId: number | null; client?: string };

// The audit keeps what a call did, not the mail it read: untrusted blocks are named, not copied.
function resultSummary(output: string): string {
  const { parts, rest } = untrustedParts(output);
  if (parts.length === 0) return output;
  const from = [...new Set(parts.map((p) => p.source))];
  const shown =
    from.length > 5 ? `${from.slice(0, 5).join(', ')} and ${from.length - 5} more` : from.join(', ');
  return [`Returned mail as untrusted content (${shown}).`, rest].filter(Boolean).join(' ');
}

// Who decided, as the audit says it: the user's answer, the engine (invalid, cancelled), a grant, the
// tool's own gate, or the run's approval policy (the user's choice when starting it).
export function auditEntry(
  grants: ReturnType<typeof prepareGrants>,
  call: SettledCall,
  tool: AnyTool | undefined,
  place: CallPlace,
): AuditEntry {
  const provenance = call.provenance ?? { fromUntrusted: [], notNamedByUser: [] };
  let decidedBy: AuditEntry['decidedBy'] = 'engine';
  if (call.answered) decidedBy = 'user';
  else if (call.decision === 'auto-denied') decidedBy = 'gate';
  else if (call.decision === 'allowed' && tool) {
    const byGrants = grants.decide(tool, call.args, provenance, place.conversationId);
    decidedBy = byGrants.decision === 'allow' ? byGrants.decidedBy : 'user';
  }
  return {
    conversationId: place.conversationId,
    runId: place.runId,
    ...(place.client !== undefined ? { client: place.client } : {}),
    callId: call.id,
    tool: call.name,
    // A call to a tool that does not exist did nothing; it is logged as a read so no effect is claimed.
    effect: tool ? callEffect(tool, call.args) : ('read' as const),
    args: call.args,
    provenance,
    decision: call.decision,
    decidedBy,
    resultSummary: resultSummary(call.output),
    isError: call.isError,
  };
}
