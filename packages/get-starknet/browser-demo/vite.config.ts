import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The demo dApp: `index.html` + `main.ts`, built into `../dist/browser-demo` (the e2e test passes its own outDir). */
export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../dist/browser-demo', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
  },
});
