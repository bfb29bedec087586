import { availableParallelism, loadavg } from 'node:os';

/** Beyond this a machine is not slow but stuck; a test waiting 20 times its time has learnt enough. */
const MAX_FACTOR = 20;

/**
 * How many times longer than on an idle machine a test may wait here: TEST_TIMEOUT_FACTOR when
 * set (CI or a developer who knows the machine), else the load per core over the last minute,
 * at least 1. Read at each call, so a test file started under load waits longer than one started
 * idle.
 */
export function testTimeoutFactor(env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.TEST_TIMEOUT_FACTOR);
  if (env.TEST_TIMEOUT_FACTOR !== undefined && Number.isFinite(set) && set > 0) return Math.min(set, MAX_FACTOR);
  const perCore = (loadavg()[0] ?? 0) / Math.max(1, availableParallelism());
  return Math.min(MAX_FACTOR, Math.max(1, Math.ceil(perCore)));
}

/**
 * A timeout, deadline or budget a test gives the code under test (or waits for), scaled by this
 * machine's factor: every test that sets one uses this, so tests written for an idle laptop pass
 * on a CI machine at load 20 without each guessing its own margin. A timeout the test expects to
 * fire (a server that never answers) may use it too: it only waits longer.
 */
export function testTimeout(ms: number): number {
  return Math.round(ms * testTimeoutFactor());
}

/** testTimeout as the text an environment variable (a config value) takes. */
export const testTimeoutEnv = (ms: number): string => String(testTimeout(ms));
