// Which `skimmer` to run: the build in dist-cli/ (vite.cli.config.ts) when it is at least as new as every
// source file it is built from, else the source itself, type-stripped by Node. Running the build spares
// Node stripping types from hundreds of files at every start; checking the dates keeps an edited source
// from running as its older build.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent } from './build-current.mjs';

/** The module whose `main(argv)` runs the command line, as a file URL. */
export function cliEntry(root = fileURLToPath(new URL('..', import.meta.url))) {
  const source = pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href;
  if (!buildIsCurrent(root, join('dist-cli', 'skimmer.js'), { dirs: ['electron', 'shared'] })) return source;
  return pathToFileURL(join(root, 'dist-cli', 'skimmer.js')).href;
}
