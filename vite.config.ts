// Builds the renderer (DESIGN §12). The same files are loaded by Electron and served by `skimmer serve`, so
// asset URLs are relative (`base: './'`) and nothing depends on the dev server. Vitest has its own config.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2023',
    // SECURITY: no data: URLs for scripts or styles; the CSP allows data: only for images.
    assetsInlineLimit: 0,
  },
});
