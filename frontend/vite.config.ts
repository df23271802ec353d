import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
    precompress(),
  ],
  server: {
    port: 5173,
    // changeOrigin: the API in local mode answers only requests naming its own address
    // (a guard against DNS rebinding), so the proxy must name it rather than :5173.
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});


/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|map|txt|xml|webmanifest)$/;
/** Below this, a compressed copy saves less than a packet. */
const MIN_SIZE = 512;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build,
 * at the highest levels (paid once, at build time). The API (api/src/web.rs) sends the
 * copy the browser accepts, with `Content-Encoding`; nothing is compressed per request.
 * A copy not at least 10% smaller than its file is not kept.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'leadgen-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file, the public/ copies included, is written.
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < MIN_SIZE) continue;
        const br = zlib.brotliCompressSync(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        const gz = zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION });
        if (br.length < data.length * 0.9) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < data.length * 0.9) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}
