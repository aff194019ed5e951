// Builds the map benchmark's harness page (bench/map.ts runs this build, then serves the output).
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  // Not minified: CPU profiles (MAP_BENCH_PROFILE=1) then name the functions.
  build: { target: 'es2022', sourcemap: false, minify: false, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
});
