// Whether a build is current: its output file is at least as new as every source file it is built from. Lets
// `skimmer` run its built bundle and `npm start` skip rebuilding the renderer, while an edited source is never
// run or served as its older build.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when `built` (a path under `root`) exists and no file under `dirs` (or any of `files`) whose name ends in
 * one of `endings` is newer.
 */
export function buildIsCurrent(root, built, { dirs = [], files = [], endings = ['.ts'] }) {
  let builtAt;
  try {
    builtAt = statSync(join(root, built)).mtimeMs;
  } catch {
    return false; // not built yet (a checkout before `npm install` or `npm run build`)
  }
  const newer = (path) => statSync(path).mtimeMs > builtAt;
  if (files.some((f) => newer(join(root, f)))) return false;
  for (const dir of dirs) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !endings.some((e) => entry.name.endsWith(e))) continue;
      if (newer(join(entry.parentPath, entry.name))) return false;
    }
  }
  return true;
}
