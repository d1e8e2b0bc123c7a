// `skimmer resume CONVERSATION`: answers the calls a --tools run is waiting on, as the `chat:answer` channel
// does (waitingCalls, then runAgent with the answers), and goes on.
import { waitingCalls } from '../ai/chat/agent.ts';
import type { Answer as CallAnswer, PendingCall } from '../ai/chat/engine.ts';
import { agentRun } from './agent-run.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';

// SECURITY: `--approve ID` decides the one waiting call Skimmer listed under that id, bound to the hash of
// the arguments it listed; an id that is not waiting, or named twice, is refused before anything runs.
function resumeAnswers(waiting: readonly PendingCall[], approve: string[], deny: string[]): CallAnswer[] {
  const named = [
    ...approve.map((id) => ({ id, decision: 'approve' as const })),
    ...deny.map((id) => ({ id, decision: 'deny' as const })),
  ];
  const seen = new Set<string>();
  return named.map(({ id, decision }) => {
    if (seen.has(id)) throw new UsageError(`Call ${id} is named twice; give each call one answer.`);
    seen.add(id);
    const calls = waiting.filter((c) => c.id === id);
    if (calls.length === 0) throw new UsageError(`No call ${id} is waiting in this conversation.`);
    // Only a turn stored before Skimmer named calls itself can repeat an id.
    if (calls.length > 1)
      throw new UsageError(`Two waiting calls share the id ${id}; answer them in the app.`);
    return { id, argsHash: calls[0]?.argsHash ?? '', decision };
  });
}

export const resumeCommand: Command = async (app, args, values, io, signal) => {
  const [id, ...rest] = args;
  const conversationId = Number(id);
  if (!id || rest.length > 0 || !(Number.isInteger(conversationId) && conversationId > 0)) {
    throw new UsageError('Use `skimmer resume CONVERSATION [--approve CALL…] [--deny CALL…]`.');
  }
  const model = values.model ?? app.conversations.summary(conversationId)?.model;
  if (!model) throw new UsageError(`There is no conversation ${conversationId}.`);
  const answers = resumeAnswers(
    waitingCalls(app, conversationId, 'none').map((w) => w.call),
    values.approve ?? [],
    values.deny ?? [],
  );
  return agentRun(app, { model, conversationId, answers, policy: 'none' }, values, io, signal);
};
