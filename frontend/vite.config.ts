import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Rust API serves `dist/` with an SPA fallback; in development Vite proxies
// every `/api` call (including the SSE search stream) to the API on port 8080.
// LEADGEN_API_URL points the proxy elsewhere (e.g. the mock API in scripts/).
const apiTarget = process.env.LEADGEN_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    // The router plugin must run before the React plugin so generated route code is
    // transformed like hand-written code.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
