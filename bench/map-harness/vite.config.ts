// Builds the map benchmark's harness page (bench/map.ts runs this build, then serves the output).
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  build: { target: 'es2022', sourcemap: false, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
});
