// `skimmer ask [SERVICE/MODEL] PROMPT`: a plain question by the same ask the `chat:send` channel runs, the answer
// streamed and the turn stored; with --tools a tool-using run (agent-run.ts). The model is chosen as judge's and
// summarize's is (model-arg.ts), and a failure exits as theirs do: 2 for a request Skimmer cannot take
// (`invalid_request`), 1 for the rest.
import type { ApprovalPolicy } from '../ai/chat/agent.ts';
import { ask } from '../ai/chat/ask.ts';
import { splitModelRef } from '../ai/model-access.ts';
import { noticeMessage } from '../ai/protocol/events.ts';
import { agentRun } from './agent-run.ts';
import type { Command } from './command.ts';
import { failureOf, printFailure, UsageError } from './failures.ts';
import { usageSentence } from './flags.ts';
import { modelOf, modelShaped } from './model-arg.ts';

export const askCommand: Command = async (app, args, values, io, signal) => {
  // With --model every word is the prompt. Without it the first word is the model when it is written as one
  // (`local/llama3.2`, as it always was), else every word is the prompt and the default chat model answers.
  const [first, ...rest] = args;
  const word = values.model === undefined && modelShaped(first) ? first : undefined;
  const prompt = (word === undefined ? args : rest).join(' ').trim();
  if (!prompt) throw new UsageError(usageSentence('ask'));
  const model = modelOf(app, 'chat', { word, flag: values.model });
  try {
    // A model it cannot read is refused here, before either run starts, so both exit alike.
    splitModelRef(model);
  } catch (e) {
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return 2;
  }
  const conversationId = values.conversation === undefined ? undefined : Number(values.conversation);
  if (conversationId !== undefined && !(Number.isInteger(conversationId) && conversationId > 0)) {
    throw new UsageError('--conversation takes the number `skimmer ask --json` printed as conversationId.');
  }
  if (values.tools) {
    const [policy, ...extra] = values.approve ?? ['none'];
    if (extra.length > 0 || !['none', 'read', 'all'].includes(policy ?? '')) {
      throw new UsageError('--approve takes one of none, read or all.');
    }
    return agentRun(
      app,
      { model, prompt, conversationId, policy: policy as ApprovalPolicy },
      values,
      io,
      signal,
    );
  }
  const print = (o: object) => io.out(JSON.stringify(o));
  let failed = false;
  try {
    for await (const e of ask(
      app,
      { model, prompt, conversationId },
      {
        signal,
        onRetry: ({ waitMs }) =>
          values.json
            ? print({ type: 'retrying', seconds: Math.ceil(waitMs / 1000) })
            : io.err(`The service is busy; retrying in ${Math.ceil(waitMs / 1000)} s.`),
      },
    )) {
      if (e.type === 'start' && values.json) print(e);
      else if (e.type === 'text_delta')
        values.json ? print({ type: 'text', text: e.text }) : process.stdout.write(e.text);
      else if (e.type === 'usage' && values.json) print(e);
      else if (e.type === 'error' && !e.terminal)
        // Part of the answer could not be read; the answer goes on (DESIGN §6).
        values.json
          ? print({ type: 'notice', code: e.code, message: noticeMessage })
          : io.err(`\n${noticeMessage}`);
      else if (e.type === 'message_stop')
        values.json ? print({ type: 'done', stopReason: e.stopReason }) : io.out('');
      else if (e.type === 'aborted' || (e.type === 'error' && e.terminal)) {
        failed = true;
        const error =
          e.type === 'aborted'
            ? { code: 'cancelled', message: 'The request was stopped.' }
            : {
                code: e.code,
                message: e.message,
                ...(e.providerDetail ? { detail: e.providerDetail } : {}),
              };
        if (values.json) print({ type: 'error', ...error });
        else io.err(`\n${error.message}${'detail' in error ? ` (${error.detail})` : ''}`);
      }
    }
  } catch (e) {
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return failure.code === 'invalid_request' ? 2 : 1;
  }
  return failed ? 1 : 0;
};
