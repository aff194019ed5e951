import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The dev server proxies the API, the socket and the extension to a running Rastro server
// (`npm run serve` on 8082); in production the server itself serves this build.
const target = process.env.RASTRO_DEV_API ?? 'http://127.0.0.1:8082';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Rastro',
        short_name: 'Rastro',
        lang: 'pt-BR',
        scope: '/',
        description: 'Rastreamento de frotas e veículos',
        theme_color: '#0b5cad',
        background_color: '#0f172a',
        display: 'standalone',
        start_url: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // The map's worker is an .mjs file: precache it too so the map works offline.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api/, /^\/tarkan/],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
  ],
  server: {
    proxy: {
      '/api/socket': { target: target.replace(/^http/, 'ws'), ws: true },
      '/api': { target, changeOrigin: false },
      '/tarkan': { target, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
