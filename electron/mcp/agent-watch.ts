// The app's side of outside agents' requests (DESIGN §13, "Outside agents"): what waits for the user, read
// again every `pollMs` (the MCP server is another process, so nothing in this one hears it ask), and told
// only when it changed. Also tells when an agent's call changed the mail, and which agent (agent-label.ts), so
// the page reloads the mail and offers Undo as it does after the assistant's run, naming the agent. Both reads use partial indexes (migration 0028).
import { prepareAudit } from '../ai/safety/audit.ts';
import type { Db } from '../db/open.ts';
import { agentLabel } from './agent-label.ts';
import { type AgentRequest, prepareAgentRequests } from './agent-requests.ts';

/** A quarter of the second within which the app must notice a request. */
const defaultPollMs = 250;

export function watchAgentRequests(
  db: Db,
  onChange: (change: { requests: AgentRequest[]; changed: boolean; agent: string | null }) => void,
  pollMs = defaultPollMs,
): () => void {
  const requests = prepareAgentRequests(db);
  const audit = prepareAudit(db, () => []);
  let seenEntry = audit.newestFromAgents();
  let seenIds: string | null = null;

  const look = () => {
    const waiting = requests.pending();
    const ids = waiting.map((r) => r.id).join(',');
    const newest = audit.newestFromAgents();
    let changed = false;
    let agent: string | null = null;
    if (newest > seenEntry) {
      const changes = audit
        .fromAgentsAfter(seenEntry)
        .filter(
          (e) => e.effect !== 'read' && !e.isError && (e.decision === 'allowed' || e.decision === 'approved'),
        );
      changed = changes.length > 0;
      // The Undo bar names the agent of the newest change (two agents within one look are rare).
      if (changed) agent = agentLabel(changes.at(-1)?.client ?? null);
      seenEntry = newest;
    }
    if (ids === seenIds && !changed) return;
    seenIds = ids;
    onChange({ requests: waiting, changed, agent });
  };
  const stop = () => {
    clearImmediate(first);
    clearInterval(timer);
  };
  // A closed database (the app shutting down) ends the watch.
  const safely = () => {
    try {
      look();
    } catch {
      stop();
    }
  };
  // The first look tells what waits already, on a later turn, after the watch's reply has gone.
  const first = setImmediate(safely);
  const timer = setInterval(safely, pollMs);
  timer.unref();
  return stop;
}
