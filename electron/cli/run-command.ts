// Runs a command line flags.ts has read: builds the app, imports the command's own file (and only it) and
// runs it, then closes the app. A usage mistake or a query Skimmer cannot read exits 2 with its sentence;
// anything else is logged and exits 1.
import { type App, createApp } from '../app.ts';
import { defaultDataDir } from '../data-dir.ts';
import { SearchQueryError } from '../mail/store/search-query.ts';
import type { Command, Out } from './command.ts';
import { UsageError } from './failures.ts';
import type { CommandLine, Family } from './flags.ts';

const commands: Record<Family, () => Promise<Command>> = {
  import: async () => (await import('./import.ts')).importCommand,
  search: async () => (await import('./search.ts')).searchCommand,
  show: async () => (await import('./show.ts')).showCommand,
  service: async () => (await import('./service.ts')).serviceCommand,
  account: async () => (await import('./account.ts')).accountCommand,
  identity: async () => (await import('./identity.ts')).identityCommand,
  draft: async () => (await import('./draft.ts')).draftCommand,
  judge: async () => (await import('./judge.ts')).judgeCommand,
  summarize: async () => (await import('./summarize.ts')).summarizeCommand,
  ask: async () => (await import('./ask.ts')).askCommand,
  resume: async () => (await import('./resume.ts')).resumeCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  mcp: async () => (await import('./mcp.ts')).mcpCommand,
};

export async function runCommand(
  line: Extract<CommandLine, { kind: 'run' }>,
  io: Out,
  signal?: AbortSignal,
): Promise<number> {
  const { family: command, args, values } = line;
  let app: App | undefined;
  try {
    const run = await commands[command]();
    // Only the long-running `serve` sends what waits in the outbox (a one-shot command exits before the undo
    // window ends) and keeps accounts in sync in the background.
    app = createApp({
      dataDir: values.data ?? defaultDataDir(),
      mode: 'browser',
      background: command === 'serve',
      // The MCP server runs beside the app, on the same data folder: the app's runs are not its to close.
      besideTheApp: command === 'mcp',
    });
    return await run(app, args, values, io, signal);
  } catch (e) {
    // A search query Skimmer cannot read (judge --query): its sentence names the operator or value.
    if (e instanceof UsageError || e instanceof SearchQueryError) {
      io.err(e.message);
      return 2;
    }
    app?.log.error('cli', e);
    io.err(`Skimmer could not finish: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await app?.close();
  }
}
