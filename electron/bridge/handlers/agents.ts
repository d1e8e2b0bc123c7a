// The agents channels of the bridge (DESIGN §13, "Outside agents"): what outside agents wait for, the user's
// answer from the card, and a watch that tells the page when either changes.

import type { Db } from '../../db/open.ts';
import { prepareAgentRequests } from '../../mcp/agent-requests.ts';
import { watchAgentRequests } from '../../mcp/agent-watch.ts';
import type { Handlers } from '../dispatch.ts';
import type { StreamHub } from '../streams.ts';

type Deps = { db: Db; streams: StreamHub };

export function agentHandlers(deps: Deps): Pick<Handlers, 'agent:pending' | 'agent:answer' | 'agent:watch'> {
  const requests = prepareAgentRequests(deps.db);
  return {
    'agent:pending': () => requests.pending(),
    'agent:answer': (r) => {
      requests.answer(r.id, r.argsHash, r.decision);
      return { answered: true as const };
    },
    'agent:watch': () => {
      const streamId = deps.streams.start(() => {
        stop();
        deps.streams.emit(
          streamId,
          { type: 'error', error: { code: 'cancelled', message: 'Stopped.' } },
          true,
        );
      });
      const stop = watchAgentRequests(deps.db, (c) =>
        deps.streams.emit(streamId, { type: 'agent_requests', ...c }),
      );
      return { streamId };
    },
  };
}
