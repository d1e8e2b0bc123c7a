// How a command fails. A usage mistake is a UsageError, which main.ts prints and exits 2 on; an expected
// failure is printed by the command itself through printFailure; anything else is a bug, logged by main.ts.

import { AiFailure } from '../ai/protocol/errors.ts';
import { toFailure } from '../bridge/errors.ts';
import type { Out } from './command.ts';
import type { Values } from './flags.ts';

/** A command line Skimmer cannot run: the sentence says what to write instead (exit 2). */
export class UsageError extends Error {}

type Failure = { code: string; message: string; detail?: string };

// An expected failure as the bridge would say it (bridge/errors.ts), with the service's redacted detail when
// it gave one; null for anything else, which main() logs.
export function failureOf(e: unknown): Failure | null {
  const failure = toFailure(e);
  if (!failure) return null;
  return e instanceof AiFailure && e.providerDetail ? { ...failure, detail: e.providerDetail } : failure;
}

// Every failure a command ends with is printed this one way: a JSON line with --json, else the sentence (and
// the detail) on stderr.
export function printFailure(io: Out, values: Values, failure: Failure): void {
  if (values.json) io.out(JSON.stringify({ type: 'error', ...failure }));
  else io.err(failure.detail ? `${failure.message} ${failure.detail}` : failure.message);
}
