// The shape of a `skimmer` command (DESIGN §13): main.ts reads the command line against flags.ts, builds the
// app and runs the command's file, which prints what it did and returns the exit code.
import type { App } from '../app.ts';
import type { Values } from './flags.ts';

/** Where a command prints, a line at a time: standard output and standard error (a test passes its own). */
export type Out = { out: (line: string) => void; err: (line: string) => void };

/**
 * One command's body: the words after the command (`add NAME` for a family) and its parsed flags. It runs on the
 * whole app, or on what it needs alone (`skimmer search` on search-reader.ts).
 */
export type Command<On = App> = (
  on: On,
  args: string[],
  values: Values,
  io: Out,
  signal?: AbortSignal,
) => Promise<number>;
