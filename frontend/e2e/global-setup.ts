import fs from 'node:fs';
import { printLogs, readState, SCREENSHOT_DIR, startStack, stopStack } from './stack';

/** Starts the stack once for the whole run; tests read its addresses from the environment. */
export default async function globalSetup() {
  // A run that crashed before its teardown left its state behind: clean it up first.
  const stale = readState();
  if (stale) {
    process.stderr.write(`[e2e] cleaning up a previous run (database ${stale.database})\n`);
    await stopStack(stale);
  }
  fs.rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });

  const started = Date.now();
  let state;
  try {
    state = await startStack();
  } catch (error) {
    process.stderr.write(`[e2e] the stack did not start: ${error}\n`);
    printLogs();
    const partial = readState();
    if (partial) await stopStack(partial);
    throw error;
  }
  process.env.LEADGEN_E2E_BASE_URL = state.baseUrl;
  process.env.LEADGEN_E2E_ISSUER = state.issuer;
  process.env.LEADGEN_E2E_GOOGLE_URL = state.googleUrl;
  process.env.LEADGEN_E2E_FAKE_WEB_URL = state.fakeWebUrl;
  process.env.LEADGEN_E2E_STRIPE_URL = state.stripeUrl;
  process.env.LEADGEN_E2E_HOOK_PORT = String(state.hookPort);
  process.stderr.write(
    `[e2e] stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s: app ${state.baseUrl}, issuer ${state.issuer}, places-sim ${state.simUrl}, google-sim ${state.googleUrl}, database ${state.database}\n`,
  );
}
