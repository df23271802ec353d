#!/usr/bin/env node
// `npm run e2e`: everything the browser tests need, then the tests.
//   1. Debian's chromium, if /usr/bin/chromium is absent (apt-get; sudo unless root).
//   2. The Rust binaries in debug, if absent or LEADGEN_E2E_BUILD=1 (cargo build, from
//      the repository root).
//   3. npm packages: the OIDC provider's (testkit/oidc) and ours, if absent; schemathesis
//      (PyPI) in testkit/schemathesis/.venv.
//   4. The web app (npm run build), which leadgen-api serves.
//   5. A type check of e2e/, then Playwright (arguments are passed on, e.g. `-g logout`).
// Playwright's global setup starts the stack (e2e/stack.ts) and its teardown stops it;
// if the runner dies before its teardown, this script cleans up what it left.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readState, stopStack } from './cleanup.mjs';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(frontend, '..');
const started = Date.now();

function say(message) {
  process.stderr.write(`[e2e] ${message}\n`);
}

function step(what, cmd, args, options = {}) {
  say(what);
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) {
    say(`${what}: failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

const chromium = process.env.LEADGEN_E2E_CHROMIUM ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const root_ = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root_ ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...pre] = [...sudo, 'apt-get'];
  step('installing Debian chromium (apt-get update)', cmd, [...pre, 'update'], { env });
  step('installing Debian chromium (apt-get install)', cmd, [...pre, 'install', '-y', 'chromium'], { env });
}

// Cargo's output dir: CARGO_TARGET_DIR when set (a shared build cache), else <repo>/target.
const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(root, 'target');
// leadgen-testkit's binaries are the simulators: places-sim, fake-web, google-sim and stripe-sim.
const binaries = ['leadgen-api', 'leadgen-worker', 'places-sim', 'fake-web', 'google-sim', 'stripe-sim'].map((b) => path.join(targetDir, 'debug', b));
// Built only when absent (others may be compiling in this target directory);
// LEADGEN_E2E_BUILD=1 rebuilds anyway, e.g. after Rust changes.
if (process.env.LEADGEN_E2E_BUILD === '1' || binaries.some((b) => !fs.existsSync(b))) {
  step('building the Rust binaries (debug)', 'cargo', ['build', '-p', 'leadgen-api', '-p', 'leadgen-worker', '-p', 'leadgen-testkit'], {
    cwd: root,
  });
}

const oidc = path.join(root, 'testkit', 'oidc');
if (!fs.existsSync(path.join(oidc, 'node_modules', 'oidc-provider'))) {
  // `npm install` rather than `npm ci`, as ./leadgen does: the registry here lacks some
  // optional platform packages that `npm ci` would treat as a broken lock.
  step('installing the OIDC provider packages', 'npm', ['install', '--prefix', oidc, '--no-audit', '--no-fund', '--loglevel=error']);
}
if (!fs.existsSync(path.join(frontend, 'node_modules', '@playwright', 'test'))) {
  step('installing the front-end packages', 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: frontend,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

// schemathesis (the contract fuzzing spec) in a virtual environment of its own, pinned by
// testkit/schemathesis/requirements.txt; reinstalled when that file changes.
const fuzz = path.join(root, 'testkit', 'schemathesis');
const fuzzStamp = path.join(fuzz, '.venv', 'requirements.installed');
const fuzzWanted = fs.readFileSync(path.join(fuzz, 'requirements.txt'), 'utf8');
if (!fs.existsSync(fuzzStamp) || fs.readFileSync(fuzzStamp, 'utf8') !== fuzzWanted) {
  step('creating the schemathesis environment', 'python3', ['-m', 'venv', path.join(fuzz, '.venv')]);
  step('installing schemathesis', path.join(fuzz, '.venv', 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', '-r', path.join(fuzz, 'requirements.txt')]);
  fs.writeFileSync(fuzzStamp, fuzzWanted);
}

step('building the web app', 'npm', ['run', 'build', '--silent'], { cwd: frontend });
step('type-checking e2e/', 'npx', ['tsc', '--noEmit', '-p', 'e2e/tsconfig.json'], { cwd: frontend });

say('running the browser tests');
const tests = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: frontend,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});

// Normally the global teardown has removed the state file; if not, clean up after it.
const left = readState();
if (left) {
  say('the test runner left the stack behind: cleaning up');
  await stopStack(left);
}
say(`done in ${((Date.now() - started) / 1000).toFixed(0)} s (screenshots in test-results/screenshots, logs in test-results/e2e-logs)`);
process.exit(tests.status ?? 1);
