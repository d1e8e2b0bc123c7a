// The `skimmer` command (DESIGN §13). It uses the same composition root as the desktop app and the
// browser mode. Errors go to stderr as one sentence with a non-zero exit code; `--json` prints one JSON
// object per line for scripts and tests. Each command is a file of its own; this one reads the command
// line against the tables in flags.ts and hands it to run-command.ts. Only what a line needs is loaded
// (issue 18: the command line starts in under 150 ms): `--help` and a refused line load flags.ts alone.
import { defaultDataDir } from '../data-dir.ts';
import type { Out } from './command.ts';
import { readCommandLine } from './flags.ts';

const stdio: Out = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
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
  const { runCommand } = await import('./run-command.ts');
  return runCommand(line, io, signal);
}
