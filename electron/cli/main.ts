// The `skimmer` command (DESIGN §13). It uses the same composition root as the desktop app and the
// browser mode. Errors go to stderr as one sentence with a non-zero exit code; `--json` prints one JSON
// object per line for scripts and tests. Each command is a file of its own; this one reads the command
// line against the tables in flags.ts, builds the app and runs the command.
import { type App, createApp } from '../app.ts';
import { defaultDataDir } from '../data-dir.ts';
import { SearchQueryError } from '../mail/store/search-query.ts';
import { accountCommand } from './account.ts';
import { askCommand } from './ask.ts';
import type { Command, Out } from './command.ts';
import { draftCommand } from './draft.ts';
import { UsageError } from './failures.ts';
import { type Family, readCommandLine } from './flags.ts';
import { identityCommand } from './identity.ts';
import { importCommand } from './import.ts';
import { judgeCommand } from './judge.ts';
import { mcpCommand } from './mcp.ts';
import { resumeCommand } from './resume.ts';
import { searchCommand } from './search.ts';
import { serveCommand } from './serve.ts';
import { serviceCommand } from './service.ts';
import { showCommand } from './show.ts';
import { summarizeCommand } from './summarize.ts';

const stdio: Out = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const commands: Record<Family, Command> = {
  import: importCommand,
  search: searchCommand,
  show: showCommand,
  service: serviceCommand,
  account: accountCommand,
  identity: identityCommand,
  draft: draftCommand,
  judge: judgeCommand,
  summarize: summarizeCommand,
  ask: askCommand,
  resume: resumeCommand,
  serve: serveCommand,
  mcp: mcpCommand,
};

export async function main(argv: string[], io: Out = stdio, signal?: AbortSignal): Promise<number> {
  // Each command takes only its own flags: whatever it does not take is refused before anything runs.
  const line = readCommandLine(argv, defaultDataDir());
  if (line.kind === 'help') {
    io.out(line.text);
    return 0;
  }
  if (line.kind === 'refused') {
    io.err(line.text);
    return 2;
  }
  const { family: command, args, values } = line;
  const run = commands[command];
  let app: App | undefined;
  try {
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
