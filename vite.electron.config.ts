// Builds the desktop shell for Electron: main process and import worker as ESM, the preload as one
// CommonJS file (a sandboxed preload cannot load ES modules or other files). Run with
// `npm run build:electron`; native and Electron modules stay external.
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

const external = ['electron', 'better-sqlite3', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default defineConfig(({ mode }) => {
  const preload = mode === 'preload';
  return {
    build: {
      outDir: 'dist-electron',
      emptyOutDir: !preload,
      ssr: true,
      target: 'node24',
      minify: false,
      rollupOptions: {
        input: (preload
          ? { preload: 'electron/preload.ts' }
          : {
              main: 'electron/main.ts',
              'import-worker': 'electron/mail/import/import-worker.ts',
              'imap-fetcher-worker': 'electron/mail/imap/imap-fetcher-worker.ts',
              'judge-worker': 'electron/ai/triage/judge-worker.ts',
              'parse-worker': 'electron/mail/import/parse-worker.ts',
              'read-worker': 'electron/reads/read-worker.ts',
              'sync-worker': 'electron/mail/imap/sync-worker.ts',
            }) as Record<string, string>,
        external: preload ? ['electron'] : external,
        output: preload
          ? { format: 'cjs', entryFileNames: '[name].cjs' }
          : { format: 'es', entryFileNames: '[name].js' },
      },
    },
    ssr: { noExternal: preload ? true : undefined },
  };
});
