// Which `skimmer` to run: the build in dist-cli/ (vite.cli.config.ts) when it is at least as new as every
// source file it is built from, else the source itself, type-stripped by Node. Running the build spares
// Node stripping types from hundreds of files at every start; checking the dates keeps an edited source
// from running as its older build. The build lists the files it was built from (dist-cli/sources.json), so a
// start reads the dates of those alone: walking electron/ and shared/ for them took 6–10 ms of every start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent } from './build-current.mjs';

export const sourcesListName = 'sources.json';

/** The module whose `main(argv)` runs the command line, as a file URL. */
export function cliEntry(root = fileURLToPath(new URL('..', import.meta.url))) {
  const source = pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href;
  let files;
  try {
    files = JSON.parse(readFileSync(join(root, 'dist-cli', sourcesListName), 'utf8'));
  } catch {
    return source; // not built yet, or built before the list existed
  }
  if (!Array.isArray(files) || files.length === 0) return source;
  if (!buildIsCurrent(root, join('dist-cli', 'skimmer.js'), { files })) return source;
  return pathToFileURL(join(root, 'dist-cli', 'skimmer.js')).href;
}
