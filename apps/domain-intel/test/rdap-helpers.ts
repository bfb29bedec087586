import { ManualClock } from '@repo/server-kit';
import { tempDir, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { type Config, loadDomainIntelConfig } from '../src/config.ts';
import { createRdapEngine, type RdapEngine } from '../src/rdap/engine.ts';

/** Environment that points the service at a running simulator's RDAP servers. */
export function simRdapEnv(sim: UpstreamSim, extra: Record<string, string> = {}): Record<string, string> {
  return {
    RDAP_BOOTSTRAP_URL: `${sim.url}/rdap/bootstrap/dns.json`,
    RDAP_ALLOW_INSECURE: '1',
    RDAP_REQUEST_TIMEOUT_MS: testTimeoutEnv(1_000),
    RDAP_CONNECT_TIMEOUT_MS: testTimeoutEnv(1_000),
    // The default budget scaled alike, so a hanging server still meets the request timeout first.
    RDAP_LOOKUP_BUDGET_MS: testTimeoutEnv(10_000),
    RDAP_RETRY_MAX_WAIT_MS: '0',
    // Only the simulator's bootstrap: the built-in table of extra servers names real registries.
    RDAP_EXTRA_SERVERS: '{}',
    ...extra,
  };
}

export interface EngineUnderTest {
  sim: UpstreamSim;
  engine: RdapEngine;
  config: Config;
  clock: ManualClock;
  errors: unknown[];
  close(): Promise<void>;
}

/** A simulator with a few names, and an RDAP engine pointed at it. */
export async function startEngine(env: Record<string, string> = {}, sim?: UpstreamSim): Promise<EngineUnderTest> {
  const ownSim = sim ?? (await startUpstreamSim({}));
  const dir = tempDir('rdap');
  const config = loadDomainIntelConfig({ NODE_ENV: 'test', DATA_DIR: dir.dir, ...simRdapEnv(ownSim, env) });
  const clock = new ManualClock('2026-03-10T12:00:00Z');
  const errors: unknown[] = [];
  const engine = createRdapEngine(config, clock, (error) => errors.push(error));
  return {
    sim: ownSim,
    engine,
    config,
    clock,
    errors,
    async close() {
      await engine.close();
      if (!sim) await ownSim.close();
      dir.remove();
    },
  };
}
