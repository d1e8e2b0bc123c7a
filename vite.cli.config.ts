// Builds the `skimmer` command line and the workers it starts as plain ES modules in dist-cli/, so a start
// reads a few JavaScript files instead of type-stripping hundreds of .ts files (issue 18: `skimmer --help`
// in under 150 ms). bin/skimmer.mjs runs this build when it is newer than every source file, else the
// source. Packages stay in node_modules, loaded as Node loads them; only the project's own code is bundled.
// Built by `npm run build` and on install (`prepare`); `vite build --config vite.cli.config.ts` alone.
import { defineConfig } from 'vite';

const ownCode = (id: string) => id.startsWith('.') || id.startsWith('/') || id.startsWith('\0');

export default defineConfig({
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
        'parse-worker': 'electron/mail/import/parse-worker.ts',
        'sync-worker': 'electron/mail/imap/sync-worker.ts',
      },
      external: (id) => !ownCode(id),
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
