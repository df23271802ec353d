import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { defineConfig, type Plugin } from 'vite';
import { PageLoading } from './src/components/ui/spinner';
import { CHECKING_SESSION } from './src/features/auth/signed-in-only-text';

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
    routePages(),
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


/** The signed-in layout, whose chunks every app page needs as well as its own. */
const APP_LAYOUT = /\/src\/routes\/_authed\.tsx\?tsr-split/;
/** An app page's route module, split by the router plugin: its name is the page's. */
const APP_PAGE = /\/src\/routes\/_authed\/([\w-]+)\.tsx\?tsr-split/;

/**
 * Writes `pages/<page>.html` for each signed-in page (`dashboard`, `settings`...): the
 * built `index.html` with
 * - a `<link rel="modulepreload">` for every chunk that page and the signed-in layout
 *   need, which the router would otherwise only ask for once the entry script has run
 *   (one more round trip before the page can render);
 * - the signed-in layout's first frame ('Checking authentication...', rendered here by
 *   the same component) already in `#root`, so it is painted as soon as the HTML and CSS
 *   arrive instead of after the scripts have loaded and run; React replaces it with the
 *   identical frame when it mounts.
 * The API serves the page's file instead of `index.html` for that path
 * (api/src/web.rs), so the landing page does not download the app's chunks.
 */
function routePages(): Plugin {
  return {
    name: 'leadgen-route-pages',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const entry = chunks.find((chunk) => chunk.isEntry);
      // What the entry pulls in statically is preloaded by index.html already.
      const loaded = new Set<string>();
      const closure = (file: string, into: Set<string>) => {
        if (into.has(file)) return;
        into.add(file);
        for (const next of byFile.get(file)?.imports ?? []) closure(next, into);
      };
      if (entry) closure(entry.fileName, loaded);
      const layout = chunks.filter((chunk) => APP_LAYOUT.test(chunk.facadeModuleId ?? ''));
      const pages = new Map<string, Set<string>>();
      for (const chunk of chunks) {
        const page = APP_PAGE.exec(chunk.facadeModuleId ?? '')?.[1];
        if (!page) continue;
        const files = pages.get(page) ?? new Set<string>();
        for (const root of [chunk, ...layout]) closure(root.fileName, files);
        pages.set(page, files);
      }
      const firstFrame = renderToStaticMarkup(createElement(PageLoading, { message: CHECKING_SESSION }));
      if (!String(html.source).includes('<div id="root"></div>')) throw new Error('index.html: no empty #root to fill');
      fs.mkdirSync(path.join(outDir, 'pages'), { recursive: true });
      for (const [page, files] of pages) {
        const links = [...files]
          .filter((file) => !loaded.has(file))
          .sort()
          .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n');
        const source = String(html.source)
          .replace('  </head>', `${links}\n  </head>`)
          .replace('<div id="root"></div>', `<div id="root">${firstFrame}</div>`);
        fs.writeFileSync(path.join(outDir, 'pages', `${page}.html`), source);
      }
    },
  };
}

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
