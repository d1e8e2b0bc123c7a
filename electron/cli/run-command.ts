// Runs a command line flags.ts has read: imports the command's own file (and only it), opens what it runs on
// (the whole app, or for a search the searches alone: search-reader.ts) and runs it, then closes it. A usage
// mistake or a query Skimmer cannot read exits 2 with its sentence; anything else is logged and exits 1.
import { defaultDataDir } from '../data-dir.ts';
import type { Log } from '../log.ts';
import { SearchQueryError } from '../mail/store/search-query.ts';
import type { Command, Out } from './command.ts';
import { UsageError } from './failures.ts';
import type { CommandLine, Family } from './flags.ts';

type Line = Extract<CommandLine, { kind: 'run' }>;
// What a command runs on, open, and the command ready to run on it.
type Started = {
  on: { log: Log; close(): void | Promise<void> };
  run: (io: Out, signal?: AbortSignal) => Promise<number>;
};

// How each command opens what it runs on: `search` the searches alone; the others the app (app.ts, imported only
// then: it loads every service and every channel's schemas).
const commands: Record<Family, (line: Line, dataDir: string) => Promise<Started>> = {
  search: async (line, dataDir) => {
    const [{ searchCommand }, { openSearchReader }] = await Promise.all([
      import('./search.ts'),
      import('../search-reader.ts'),
    ]);
    const reader = openSearchReader(dataDir);
    return { on: reader, run: (io) => searchCommand(reader, line.args, line.values, io) };
  },
  import: onApp(async () => (await import('./import.ts')).importCommand),
  show: onApp(async () => (await import('./show.ts')).showCommand),
  attachment: onApp(async () => (await import('./attachment.ts')).attachmentCommand),
  service: onApp(async () => (await import('./service.ts')).serviceCommand),
  // `account discover` is a file of its own (discover.ts): what it finds is no account yet.
  account: (line, dataDir) =>
    onApp(async () =>
      line.command === 'account discover'
        ? (await import('./discover.ts')).discoverCommand
        : (await import('./account.ts')).accountCommand,
    )(line, dataDir),
  identity: onApp(async () => (await import('./identity.ts')).identityCommand),
  draft: onApp(async () => (await import('./draft.ts')).draftCommand),
  judge: onApp(async () => (await import('./judge.ts')).judgeCommand),
  summarize: onApp(async () => (await import('./summarize.ts')).summarizeCommand),
  ask: onApp(async () => (await import('./ask.ts')).askCommand),
  resume: onApp(async () => (await import('./resume.ts')).resumeCommand),
  serve: onApp(async () => (await import('./serve.ts')).serveCommand),
  mcp: onApp(async () => (await import('./mcp.ts')).mcpCommand),
};

function onApp(load: () => Promise<Command>): (line: Line, dataDir: string) => Promise<Started> {
  return async (line, dataDir) => {
    const [command, { createApp }] = await Promise.all([load(), import('../app.ts')]);
    const app = createApp({
      dataDir,
      mode: 'browser',
      // Only the long-running `serve` sends what waits in the outbox (a one-shot command exits before the undo
      // window ends) and keeps accounts in sync in the background.
      background: line.family === 'serve',
      // The MCP server runs beside the app, on the same data folder: the app's runs are not its to close.
      besideTheApp: line.family === 'mcp',
    });
    return { on: app, run: (io, signal) => command(app, line.args, line.values, io, signal) };
  };
}

export async function runCommand(line: Line, io: Out, signal?: AbortSignal): Promise<number> {
  let started: Started | undefined;
  try {
    started = await commands[line.family](line, line.values.data ?? defaultDataDir());
    return await started.run(io, signal);
  } catch (e) {
    // A search query Skimmer cannot read (judge --query): its sentence names the operator or value.
    if (e instanceof UsageError || e instanceof SearchQueryError) {
      io.err(e.message);
      return 2;
    }
    started?.on.log.error('cli', e);
    io.err(`Skimmer could not finish: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await started?.on.close();
  }
}
