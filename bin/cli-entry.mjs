// Which `skimmer` to run: the build in dist-cli/ (vite.cli.config.ts) when it is at least as new as every
// source file it is built from, else the source itself, type-stripped by Node. Running the build spares
// Node stripping types from hundreds of files at every start; checking the dates keeps an edited source
// from running as its older build.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const sources = ['electron', 'shared'];

/** The module whose `main(argv)` runs the command line, as a file URL. */
export function cliEntry(root = fileURLToPath(new URL('..', import.meta.url))) {
  const source = pathToFileURL(join(root, 'electron', 'cli', 'main.ts')).href;
  let built;
  try {
    built = statSync(join(root, 'dist-cli', 'skimmer.js')).mtimeMs;
  } catch {
    return source; // not built (a checkout before `npm install` or `npm run build`)
  }
  for (const dir of sources) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      if (statSync(join(entry.parentPath, entry.name)).mtimeMs > built) return source;
    }
  }
  return pathToFileURL(join(root, 'dist-cli', 'skimmer.js')).href;
}
