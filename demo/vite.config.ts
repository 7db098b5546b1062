import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Builds the demo page from source (the library is imported from its source folders).
export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  // The page is always a production build: packages with a development build (Lit's warns "Lit is
  // in dev mode" in the console) resolve to their production one even when NODE_ENV says otherwise
  // (a test runner sets NODE_ENV=test, a shell may set development).
  resolve: { conditions: ['module', 'browser', 'production'] },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
  },
});
