// The real stack the browser tests run against, all on loopback: a fresh Postgres
// database, a Redis key prefix of its own, the Places simulator, the Google fake
// (OAuth token endpoint, Sheets and Drive), the OIDC provider (panva/oidc-provider),
// leadgen-api (distributed mode, serving frontend/dist) and one
// leadgen-worker. Started by global-setup.ts, stopped by global-teardown.ts; what was
// started is written to STATE_FILE so that a crashed run can still be cleaned up.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_ADMIN, readState, run, STATE_FILE, stopStack } from './cleanup.mjs';

export { readState, STATE_FILE, stopStack };

export const FRONTEND_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(FRONTEND_DIR, '..');
export const RESULTS_DIR = path.join(FRONTEND_DIR, 'test-results');
export const LOG_DIR = path.join(RESULTS_DIR, 'e2e-logs');
export const SCREENSHOT_DIR = path.join(RESULTS_DIR, 'screenshots');

// Cargo's output dir: CARGO_TARGET_DIR when set (a shared build cache), else <repo>/target.
const BIN = path.join(process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(REPO_ROOT, 'target'), 'debug');

/** The OAuth client of testkit/oidc/provider.mjs, also the only one the Google fake accepts. */
const OIDC_CLIENT_ID = 'leadgen-test';
const OIDC_CLIENT_SECRET = 'leadgen-test-secret';

/** A key marker of the simulator (testkit/src/places_sim/faults.rs): answers after `--slow-ms`. */
export const SIM_SLOW_MS = 1200;
/** Requests a minute the simulator allows a key: above the stack's pace (PLACES_RPS). */
const SIM_RPM = 6000;
/** Google calls a second per key: faster than production's 10, so the full-coverage
 *  test's 1,500 dentists take seconds of CI time rather than a minute and a half. */
const PLACES_RPS = 50;

/** Names of the processes, also the names of their log files. */
export const PROCESSES = ['fake-web', 'places-sim', 'google-sim', 'stripe-sim', 'oidc', 'api', 'worker'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export interface StackState {
  baseUrl: string;
  issuer: string;
  simUrl: string;
  /** The fake web serving the simulator's businesses' websites (enrichment, issue #14); `GET {fakeWebUrl}/_web/truth` says what each publishes. */
  fakeWebUrl: string;
  /** The Google fake's base URL; `GET {googleUrl}/_sim/spreadsheets` shows what was written. */
  googleUrl: string;
  /** The Stripe fake's base URL; `GET {stripeUrl}/_sim/deliveries` shows the webhooks sent. */
  stripeUrl: string;
  /** Where a test's webhook receiver listens (127.0.0.1), exempted from the guarded
   *  client's loopback refusal by LEADGEN_OUTBOUND_ALLOWED_HOSTS. */
  hookPort: number;
  database: string;
  redisPrefix: string;
  pids: Partial<Record<ProcessName, number>>;
  /** The API's environment, so a test can restart it as it was (test-only secrets). */
  apiEnv?: NodeJS.ProcessEnv;
  /** Expected command line of each pid, checked before a crash clean-up kills it. */
  commands: Partial<Record<ProcessName, string>>;
}

export function logFile(name: ProcessName): string {
  return path.join(LOG_DIR, `${name}.log`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function saveState(state: StackState) {
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}

/** The last `bytes` of a log, for failure reports. */
export function logTail(name: ProcessName, bytes = 6000, from = 0): string {
  try {
    const text = fs.readFileSync(logFile(name));
    const start = Math.max(from, text.length - bytes);
    return (start > from ? '[...]\n' : '') + text.subarray(start).toString('utf8');
  } catch {
    return '(no log)';
  }
}

export function printLogs(names: readonly ProcessName[] = PROCESSES, from: Partial<Record<ProcessName, number>> = {}) {
  for (const name of names) {
    process.stderr.write(`\n----- ${name} log (${logFile(name)}) -----\n${logTail(name, 6000, from[name] ?? 0)}\n`);
  }
}

function startProcess(state: StackState, name: ProcessName, cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT) {
  const fd = fs.openSync(logFile(name), 'a');
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  if (!child.pid) throw new Error(`could not start ${name} (${cmd})`);
  state.pids[name] = child.pid;
  state.commands[name] = path.basename(cmd);
  saveState(state);
  child.on('exit', (code, signal) => {
    fs.appendFileSync(logFile(name), `\n[e2e] ${name} exited (code ${code}, signal ${signal})\n`);
  });
  return child;
}

/** Waits for a line matching `pattern` in a log; returns the first capture group. */
async function waitForLog(name: ProcessName, pattern: RegExp, timeoutMs: number, alive: () => boolean): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = fs.existsSync(logFile(name)) ? fs.readFileSync(logFile(name), 'utf8') : '';
    const match = pattern.exec(text);
    if (match) return match[1] ?? match[0];
    if (!alive()) throw new Error(`${name} exited before printing ${pattern}`);
    await sleep(100);
  }
  throw new Error(`${name} did not print ${pattern} within ${timeoutMs} ms`);
}

async function waitForReady(url: string, timeoutMs: number, alive: () => boolean) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`leadgen-api exited before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms: ${last}`);
}

export async function startStack(): Promise<StackState> {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  for (const name of PROCESSES) fs.rmSync(logFile(name), { force: true });

  const id = randomBytes(6).toString('hex');
  const apiPort = await freePort();
  const hookPort = await freePort();
  const state: StackState = {
    hookPort,
    baseUrl: `http://127.0.0.1:${apiPort}`,
    issuer: '',
    simUrl: '',
    fakeWebUrl: '',
    googleUrl: '',
    stripeUrl: '',
    database: `leadgen_e2e_${id}`,
    redisPrefix: `leadgen_e2e_${id}`,
    pids: {},
    commands: {},
  };
  saveState(state);

  run('psql', [...PG_ADMIN, '-c', `CREATE DATABASE "${state.database}"`]);

  const exited = new Set<ProcessName>();
  const track = (name: ProcessName, child: ReturnType<typeof spawn>) => child.on('exit', () => exited.add(name));

  // The businesses' websites first: the Places simulator's `websiteUri`s point at them.
  track('fake-web', startProcess(state, 'fake-web', path.join(BIN, 'fake-web'), ['--listen', '127.0.0.1:0'], process.env));
  state.fakeWebUrl = await waitForLog('fake-web', /fake-web listening on (\S+)/, 30_000, () => !exited.has('fake-web'));
  // Places simulator on a port of its own choosing; it prints its URL.
  track(
    'places-sim',
    startProcess(
      state,
      'places-sim',
      path.join(BIN, 'places-sim'),
      ['--listen', '127.0.0.1:0', '--slow-ms', String(SIM_SLOW_MS), '--rpm', String(SIM_RPM), '--fake-web-url', state.fakeWebUrl],
      process.env,
    ),
  );
  // Google's token endpoint, Sheets and Drive. Refresh tokens come from the OIDC provider
  // (the Sheets consent), which the fake has never seen: it takes them as new grants.
  track(
    'google-sim',
    startProcess(
      state,
      'google-sim',
      path.join(BIN, 'google-sim'),
      [
        '--listen',
        '127.0.0.1:0',
        '--accept-unknown-refresh-tokens',
        '--client-id',
        OIDC_CLIENT_ID,
        '--client-secret',
        OIDC_CLIENT_SECRET,
      ],
      process.env,
    ),
  );
  // Stripe fake: Checkout and portal pages of its own (`/_sim/...`), signed webhooks to
  // the API, whose port is already chosen.
  const stripeSecretKey = `sk_test_e2e_${randomBytes(12).toString('hex')}`;
  const stripeWebhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  track(
    'stripe-sim',
    startProcess(
      state,
      'stripe-sim',
      path.join(BIN, 'stripe-sim'),
      [
        '--listen',
        '127.0.0.1:0',
        '--webhook-url',
        `${state.baseUrl}/api/billing/webhook`,
        '--webhook-secret',
        stripeWebhookSecret,
        '--secret-key',
        stripeSecretKey,
      ],
      process.env,
    ),
  );
  // OIDC provider: redirect URI must be the API's callback, exactly.
  track(
    'oidc',
    startProcess(state, 'oidc', process.execPath, [path.join(REPO_ROOT, 'testkit', 'oidc', 'provider.mjs')], {
      ...process.env,
      REDIRECT_URI: `${state.baseUrl}/api/auth/callback`,
    }),
  );
  state.simUrl = await waitForLog('places-sim', /places-sim listening on (\S+)/, 30_000, () => !exited.has('places-sim'));
  state.googleUrl = await waitForLog('google-sim', /google-sim listening on (\S+)/, 30_000, () => !exited.has('google-sim'));
  state.stripeUrl = await waitForLog('stripe-sim', /stripe-sim listening on (\S+)/, 30_000, () => !exited.has('stripe-sim'));
  state.issuer = await waitForLog('oidc', /READY (\S+)/, 30_000, () => !exited.has('oidc'));
  saveState(state);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RUST_LOG: process.env.RUST_LOG ?? 'info,sqlx=warn',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${state.database}`,
    REDIS_URL: 'redis://127.0.0.1:6379',
    LEADGEN_REDIS_PREFIX: state.redisPrefix,
    LEADGEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LEADGEN_JWT_SECRET: randomBytes(32).toString('hex'),
    LEADGEN_LISTEN: `127.0.0.1:${apiPort}`,
    LEADGEN_PUBLIC_URL: state.baseUrl,
    LEADGEN_PLACES_BASE_URL: state.simUrl,
    // The simulator answers the Places Aggregate API (the completeness meter) too.
    LEADGEN_AGGREGATE_BASE_URL: state.simUrl,
    LEADGEN_PLACES_RPS: String(PLACES_RPS),
    // Nothing here reads the worker's metrics, and a fixed port would keep two e2e runs
    // on one machine (two worktrees) from starting.
    LEADGEN_WORKER_METRICS_LISTEN: 'off',
    LEADGEN_METRICS_LISTEN: 'off',
    LEADGEN_OIDC_ISSUER: state.issuer,
    LEADGEN_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
    LEADGEN_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
    LEADGEN_GOOGLE_TOKEN_URL: `${state.googleUrl}/token`,
    LEADGEN_SHEETS_BASE_URL: state.googleUrl,
    LEADGEN_DRIVE_BASE_URL: state.googleUrl,
    STRIPE_SECRET_KEY: stripeSecretKey,
    STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
    STRIPE_PRICE_MONTHLY: 'price_pro_monthly',
    STRIPE_PRICE_YEARLY: 'price_pro_yearly',
    STRIPE_API_BASE_URL: `${state.stripeUrl}/`,
    LEADGEN_WEB_DIR: path.join(FRONTEND_DIR, 'dist'),
    // Both listen on loopback, which the guarded client refuses otherwise: the fake web
    // (contact enrichment) and the webhook receiver of integrations.spec.ts.
    LEADGEN_OUTBOUND_ALLOWED_HOSTS: `${new URL(state.fakeWebUrl).host},127.0.0.1:${hookPort}`,
  };
  state.apiEnv = env;
  track('api', startProcess(state, 'api', path.join(BIN, 'leadgen-api'), ['serve'], env));
  await waitForReady(`${state.baseUrl}/api/ready`, 60_000, () => !exited.has('api'));
  // The worker migrates too: start it once the API has done so.
  track('worker', startProcess(state, 'worker', path.join(BIN, 'leadgen-worker'), [], env));
  await waitForLog('worker', /leadgen-worker is taking jobs/, 60_000, () => !exited.has('worker'));
  return state;
}

/**
 * Kills the API process at once (SIGKILL: its open streams are cut as by a network
 * drop), keeps it down for `downMs`, then starts it again on the same address and waits
 * until it is ready. Searches go on meanwhile: they run in the worker process.
 * `overrides` change its environment for this start only (a later restart without them
 * brings the stack's own settings back).
 */
export async function restartApi(state: StackState, downMs: number, overrides: NodeJS.ProcessEnv = {}): Promise<void> {
  const pid = state.pids.api;
  if (!pid || !state.apiEnv) throw new Error('no API process to restart');
  process.kill(pid, 'SIGKILL');
  const gone = Date.now() + 10_000;
  while (Date.now() < gone) {
    try {
      process.kill(pid, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } catch {
      break;
    }
  }
  await new Promise((resolve) => setTimeout(resolve, downMs));
  let exited = false;
  const child = startProcess(state, 'api', path.join(BIN, 'leadgen-api'), ['serve'], { ...state.apiEnv, ...overrides });
  child.on('exit', () => (exited = true));
  await waitForReady(`${state.baseUrl}/api/ready`, 60_000, () => !exited);
}
