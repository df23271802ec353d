// Stopping a stack started by stack.ts: plain JavaScript so that run-e2e.mjs can also
// use it, after a test runner that died before its global teardown.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What a running stack is made of (see StackState in stack.ts). */
export const STATE_FILE = path.join(frontend, 'test-results', 'e2e-stack.json');

export const PG_ADMIN = ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAt'];
export const REDIS = ['-h', '127.0.0.1', '-p', '6379'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command; its output, or an error carrying its stderr. */
export function run(cmd, args, input) {
  const out = spawnSync(cmd, args, { encoding: 'utf8', input });
  if (out.error) throw new Error(`${cmd}: ${out.error.message}`);
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${out.status}): ${out.stderr || out.stdout}`);
  return out.stdout;
}

export function readState() {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when `pid` still runs the program we started (guards against pid reuse). */
function runs(pid, command) {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return command ? cmdline.includes(command) : true;
  } catch {
    return false;
  }
}

async function stopPid(pid) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 8000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Stops the processes (by their pids), drops the database, deletes the Redis keys. */
export async function stopStack(state) {
  // Worker and API first (they hold database connections), then the peers.
  for (const name of ['worker', 'api', 'oidc', 'google-sim', 'stripe-sim', 'places-sim', 'fake-web']) {
    const pid = state.pids?.[name];
    if (pid && runs(pid, state.commands?.[name])) await stopPid(pid);
  }
  const problems = [];
  try {
    run('psql', [...PG_ADMIN, '-c', `DROP DATABASE IF EXISTS "${state.database}" WITH (FORCE)`]);
  } catch (error) {
    problems.push(String(error));
  }
  try {
    const keys = run('redis-cli', [...REDIS, '--scan', '--pattern', `${state.redisPrefix}*`])
      .split('\n')
      .filter(Boolean);
    for (let i = 0; i < keys.length; i += 200) run('redis-cli', [...REDIS, 'DEL', ...keys.slice(i, i + 200)]);
  } catch (error) {
    problems.push(String(error));
  }
  fs.rmSync(STATE_FILE, { force: true });
  if (problems.length) process.stderr.write(`[e2e] clean-up problems:\n${problems.join('\n')}\n`);
}
