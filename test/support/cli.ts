// Runs the real `skimmer` command as a separate process, the way users run it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../electron/app.ts';

const run = promisify(execFile);
const bin = join(projectRoot, 'bin', 'skimmer.mjs');

export type CliResult = { code: number; stdout: string; stderr: string };

export async function runSkimmer(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<CliResult> {
  const child = run(process.execPath, [bin, ...args], { env: { ...process.env, ...options.env } });
  if (options.input !== undefined) child.child.stdin?.end(options.input);
  try {
    const r = await child;
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// `--json` output: one JSON object per line.
export const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
