// Whether a build is current: its output file is at least as new as every source file it is built from. Lets
// `skimmer` run its built bundle and `npm start` skip rebuilding the renderer, while an edited source is never
// run or served as its older build.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when `built` (a path under `root`) exists, every one of `files` exists, and no file under `dirs` whose name
 * ends in one of `endings`, nor any of `files`, is newer.
 */
export function buildIsCurrent(root, built, { dirs = [], files = [], endings = ['.ts'] }) {
  let builtAt;
  try {
    builtAt = statSync(join(root, built)).mtimeMs;
  } catch {
    return false; // not built yet (a checkout before `npm install` or `npm run build`)
  }
  // A listed file that is gone was moved or deleted since the build: the build is of sources that are no more.
  const newer = (path) =>
    (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) > builtAt;
  if (files.some((f) => newer(join(root, f)))) return false;
  for (const dir of dirs) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !endings.some((e) => entry.name.endsWith(e))) continue;
      if (newer(join(entry.parentPath, entry.name))) return false;
    }
  }
  return true;
}
