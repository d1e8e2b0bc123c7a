// `npm test`: every suite, on Node 24. What the suites need from the system (Debian's Chromium, fonts
// for non-Latin mail, Dovecot) is installed when this runs as root with apt; otherwise this names the
// exact command and fails. Nothing is ever skipped silently.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const systemPackages = [
  { check: '/usr/bin/chromium', packages: ['chromium', 'fonts-noto-cjk'] },
  // A real IMAP server for the sync tests. test/support/dovecot.ts runs private instances on free ports,
  // so a system Dovecot service that the install may start is never used.
  { check: '/usr/sbin/dovecot', packages: ['dovecot-imapd'] },
];

const vitestReport = 'test-results/vitest.json';
rmSync(vitestReport, { force: true }); // never report an earlier run's totals

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n> ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (cmd === 'vitest') printTotals();
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args[0] ?? ''} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

function ensureSystemPackages(): void {
  const missing = systemPackages.filter((p) => !existsSync(p.check)).flatMap((p) => p.packages);
  if (missing.length === 0) return;
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    console.error(
      `The tests need ${missing.join(', ')}. Install them with:\n  sudo apt-get ${install.join(' ')}`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['-qq', ...install], env);
}

console.log(`Node ${process.version}`);
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error('The tests run on Node 24 (the Node inside Electron 45): run them with `npm test`.');
  process.exit(1);
}
ensureSystemPackages();
run('tsc', ['-p', 'tsconfig.node.json']);
run('tsc', ['-p', 'tsconfig.renderer.json']);
run('tsc', ['-p', 'tsconfig.e2e.json']);
run('biome', ['check', '.']);
// The layer rules (.dependency-cruiser.cjs: the main process's layers in order, no cycles, renderer and shared never import electron, domain code
// never imports the bridge, providers only the protocol, electron only in the shell) and no unused files or
// exports (knip.json).
run('depcruise', [
  '--config',
  '.dependency-cruiser.cjs',
  'electron',
  'renderer',
  'shared',
  'test',
  'bench',
  'scripts',
  'fixtures',
  'bin',
]);
run('knip', ['--no-progress']);
run('vite', ['build', '--logLevel', 'warn']);
run('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);

// One plain closing line that any CI can read.
function printTotals(): void {
  if (!existsSync(vitestReport)) return;
  const r = JSON.parse(readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed`);
}
