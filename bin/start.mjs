#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here; otherwise one line saying why, then the
// browser mode (the same app, served on 127.0.0.1) with its address printed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './build-current.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;

function build(args) {
  const r = spawnSync(bin('vite'), ['build', '--logLevel', 'warn', ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function electronBinary() {
  const pathFile = `${root}node_modules/electron/path.txt`;
  if (!existsSync(pathFile))
    return { reason: 'the Electron binary is not installed (it could not be downloaded)' };
  const binary = `${root}node_modules/electron/dist/${readFileSync(pathFile, 'utf8').trim()}`;
  if (!existsSync(binary)) return { reason: 'the Electron binary is missing' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display' };
  }
  return { binary };
}

// The renderer is rebuilt only when something it is built from changed since its last build (issue 18).
const rendererInputs = {
  dirs: ['renderer', 'shared'],
  files: ['vite.config.ts', 'package-lock.json'],
  endings: ['.ts', '.tsx', '.css', '.html'],
};
if (!buildIsCurrent(root, 'dist/renderer/index.html', rendererInputs)) build([]);
const electron = electronBinary();
if (electron.binary) {
  build(['--config', 'vite.electron.config.ts']);
  build(['--config', 'vite.electron.config.ts', '--mode', 'preload']);
  const r = spawnSync(electron.binary, [root], { stdio: 'inherit' });
  process.exit(r.status ?? 0);
}
console.log(
  `Skimmer cannot open as a desktop app here: ${electron.reason}. Starting the browser mode instead.`,
);
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(['serve', ...process.argv.slice(2)]);
