// The one data folder of the desktop app and the CLI alike: `npm start`, the packaged app and `skimmer`
// must open the same database. Electron's own userData is not trusted for this: run from a checkout it is
// named after package.json (`productName`, else the lowercase `name`), so ~/.config/skimmer on Linux while
// the CLI used ~/.config/Skimmer. main.ts sets userData to this folder instead (DESIGN §3).
import { homedir } from 'node:os';
import { join } from 'node:path';

export const dataFolderName = 'Skimmer';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.SKIMMER_DATA_DIR) return env.SKIMMER_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', dataFolderName);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), dataFolderName);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), dataFolderName);
}
