// Prints a tool-using run (`skimmer ask --tools`, `skimmer resume`), the run the `chat:send` and
// `chat:answer` channels stream to the page (runAgent).
import { runAgent } from '../ai/chat/agent.ts';
import type { App } from '../app.ts';
import type { Out } from './command.ts';
import { failureOf, printFailure } from './failures.ts';
import type { Values } from './flags.ts';

// Prints a tool-using run: JSON lines with --json (start, text, tool_call, tool_result, interrupted, then
// done or error), readable lines otherwise. Waiting for approval is not a failure: exit 0.
export async function agentRun(
  app: App,
  request: Parameters<typeof runAgent>[1],
  values: Values,
  io: Out,
  signal?: AbortSignal,
): Promise<number> {
  const print = (o: object) => io.out(JSON.stringify(o));
  let code = 0;
  try {
    for await (const e of runAgent(app, request, signal ? { signal } : {})) {
      if (values.json) {
        if (e.type === 'done' || e.type === 'interrupted' || e.type === 'error') {
          const { turns: _turns, status: _status, ...rest } = e;
          print(rest);
        } else print(e);
      } else if (e.type === 'text') process.stdout.write(e.text);
      else if (e.type === 'tool_call') io.err(`\n[${e.name} ${JSON.stringify(e.args)}]`);
      else if (e.type === 'interrupted') {
        io.out('\nWaiting for your approval:');
        for (const c of e.calls) io.out(`  ${c.id}  ${c.name} ${JSON.stringify(c.args)}`);
      } else if (e.type === 'notice') io.err(`\n${e.message}`);
      else if (e.type === 'done') io.out('');
      if (e.type === 'error') {
        code = 1;
        if (!values.json) io.err(`\n${e.message}`);
      }
    }
  } catch (e) {
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return 1;
  }
  return code;
}
