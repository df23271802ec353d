#!/usr/bin/env node
// Bundle budget, run by `npm run build` after `vite build`: the JavaScript a first visit
// must download before anything renders (the entry scripts of dist/index.html and every
// chunk they import statically, which the HTML preloads) must stay within the budget,
// gzipped. Route and component chunks loaded later do not count.
//   node scripts/check-bundle.mjs [dist]      BUDGET_KB overrides the budget (kB, 1000 bytes)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(frontend, process.argv[2] ?? 'dist');
const budgetKb = Number(process.env.BUDGET_KB ?? 120);

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entries = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => m[1]);
if (entries.length === 0) {
  console.error('check-bundle: no entry script in dist/index.html');
  process.exit(1);
}

// The entries and, transitively, their static imports (`import ... from "./x.js"`,
// `import "./x.js"`); dynamic `import("./x.js")` is a later chunk.
const initial = new Set();
const queue = entries.map((src) => path.join(dist, src.replace(/^\//, '')));
while (queue.length) {
  const file = queue.pop();
  if (initial.has(file)) continue;
  initial.add(file);
  const code = fs.readFileSync(file, 'utf8');
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    queue.push(path.resolve(path.dirname(file), m[1]));
  }
}

let total = 0;
const rows = [...initial].map((file) => {
  const gz = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  total += gz;
  return [path.relative(dist, file), gz];
});
rows.sort((a, b) => b[1] - a[1]);
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
for (const [name, gz] of rows) console.log(`  ${kb(gz).padStart(9)}  ${name}`);
const verdict = total <= budgetKb * 1000 ? 'within' : 'OVER';
console.log(`initial JavaScript: ${kb(total)} gzipped, ${verdict} the ${budgetKb} kB budget`);
if (total > budgetKb * 1000) process.exit(1);
