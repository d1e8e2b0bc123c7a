// Skimmer runs on Node 24, the Node inside Electron 45. npm scripts get it from the `node` devDependency;
// a command started some other way (a global `node` 20, `npx`) re-runs itself under that Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function ensureNode24(script) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return;
  const node24 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(node24)) {
    console.error(`Skimmer needs Node 24 or newer (this is ${process.version}); run \`npm install\` first.`);
    process.exit(1);
  }
  const r = spawnSync(node24, [fileURLToPath(script), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
