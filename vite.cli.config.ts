// Builds the `skimmer` command line and the workers it starts as plain ES modules in dist-cli/, so a start
// reads a few JavaScript files instead of type-stripping hundreds of .ts files (issue 18: `skimmer --help`
// in under 150 ms). bin/skimmer.mjs runs this build when it is newer than every file it lists (sources.json),
// else the source. The packages are bundled too (resolving and reading hundreds of small files was most of a start),
// except those that must be loaded as they are: the native better-sqlite3, pdfjs-dist (it starts its own
// worker from its files) and what the code loads lazily with require (imapflow, nodemailer, oauth4webapi).
// Built by `npm run build` and on install (`prepare`); `vite build --config vite.cli.config.ts` alone.

import { builtinModules } from 'node:module';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { sourcesListName } from './bin/cli-entry.mjs';

const asTheyAre = ['better-sqlite3', 'pdfjs-dist', 'imapflow', 'nodemailer', 'oauth4webapi', 'electron'];
const external = (id: string) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  asTheyAre.some((name) => id === name || id.startsWith(`${name}/`));

const root = fileURLToPath(new URL('.', import.meta.url));

// Writes the project's files the build was made from (sources.json, beside skimmer.js): bin/cli-entry.mjs runs
// the build only while none of them is newer than it, and reads their dates alone.
const listSources = (): Plugin => ({
  name: 'skimmer-list-sources',
  generateBundle() {
    const files = [...this.getModuleIds()]
      .filter((id) => id.startsWith(root) && !id.includes(`${sep}node_modules${sep}`))
      .map((id) => relative(root, id))
      .sort();
    this.emitFile({
      type: 'asset',
      fileName: sourcesListName,
      source: `${JSON.stringify(files, null, 1)}\n`,
    });
  },
});

export default defineConfig({
  plugins: [listSources()],
  build: {
    outDir: 'dist-cli',
    emptyOutDir: true,
    ssr: true,
    target: 'node24',
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: {
        skimmer: 'electron/cli/main.ts',
        // Each worker is found beside the module that starts it (import-job.ts and the others).
        'import-worker': 'electron/mail/import/import-worker.ts',
        'imap-fetcher-worker': 'electron/mail/imap/imap-fetcher-worker.ts',
        'judge-worker': 'electron/ai/triage/judge-worker.ts',
        'parse-worker': 'electron/mail/import/parse-worker.ts',
        'read-worker': 'electron/reads/read-worker.ts',
        'sync-worker': 'electron/mail/imap/sync-worker.ts',
      },
      external,
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
  // A server build leaves every package to Node unless told otherwise; `external` above decides instead.
  ssr: { noExternal: true },
});
