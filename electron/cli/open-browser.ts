// The CLI's way to open a sign-in page in the person's browser (issue 28: "the CLI prints the address and opens
// it when it can"): the desktop's own opener, when this terminal belongs to a desktop session. Over SSH or in a
// container without a display there is none, and the printed address is the way.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type Opener = (url: string) => Promise<void>;

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The system's opener for a URL, or null when this session has no desktop to open it on. */
export function browserOpener(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Opener | null {
  let command: { file: string; args: (url: string) => string[] } | null = null;
  if (platform === 'darwin') command = { file: '/usr/bin/open', args: (u) => [u] };
  else if (platform === 'win32')
    command = { file: 'rundll32.exe', args: (u) => ['url.dll,FileProtocolHandler', u] };
  else if (env.DISPLAY || env.WAYLAND_DISPLAY) {
    const xdg = onPath('xdg-open', env);
    if (xdg) command = { file: xdg, args: (u) => [u] };
  }
  if (!command) return null;
  const { file, args } = command;
  return (url) => {
    // SECURITY: only a web address is handed to the system's opener (which would also open a file: or a
    // desktop entry); the sign-in's own address is https, or http on this computer (shared/oauth-issuer.ts).
    const protocol = new URL(url).protocol;
    if (protocol !== 'https:' && protocol !== 'http:') {
      return Promise.reject(new Error('only a web address is opened in the browser'));
    }
    return new Promise<void>((resolve, reject) => {
      const child = spawn(file, args(url), { stdio: 'ignore', detached: true, env });
      child.once('error', reject);
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
  };
}
