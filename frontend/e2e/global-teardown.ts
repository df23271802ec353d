import { readState, stopStack } from './stack';

/** Stops what global-setup started: processes, database, Redis keys. */
export default async function globalTeardown() {
  const state = readState();
  if (state) await stopStack(state);
}
