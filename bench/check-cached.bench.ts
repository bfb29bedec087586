/**
 * Cached availability: throughput of /v1/check for a name whose answer is cached (key
 * lookup, quota, cache read, envelope) against the bare Fastify hello-world, each server in
 * its own process, with the cache in memory and (when REDIS_URL is set) in Redis. Target:
 * ratio >= 0.4. A second figure compares it with a keyed, quota-counted no-op route of the same
 * server, which isolates what the check itself adds (target >= 0.8).
 */

import { startUpstreamSim } from '@repo/upstream-sim';
import { startDomainIntel } from './lib/domain-intel.ts';
import { compareServers, reportAgainstHelloWorld, reportComparison } from './lib/harness.ts';

async function measureMode(mode: 'memory' | 'redis') {
  const sim = await startUpstreamSim();
  sim.world.register('cached-name.com');
  const api = await startDomainIntel({ sim, redis: mode === 'redis', keyedPing: true });
  const { headers } = api.info;
  const checkPath = '/v1/check?domain=cached-name.com';
  try {
    const warm = (await (await fetch(api.url + checkPath, { headers })).json()) as { data: { status: string }[] };
    if (warm.data[0]?.status !== 'registered') throw new Error(`warm-up answered ${JSON.stringify(warm)}`);
    const before = sim.rdap.requestCount('verisign');
    const check = { server: api, path: checkPath, headers };
    await reportAgainstHelloWorld({ name: `check-cached-${mode}`, target: '>= 0.4', label: 'check', candidate: check });
    if (sim.rdap.requestCount('verisign') !== before)
      throw new Error('the measured calls were not served from the cache');
    const versusPing = await compareServers({ server: api, path: '/v1/bench/ping', headers }, check);
    reportComparison({
      name: `check-cached-vs-keyed-ping-${mode}`,
      target: '>= 0.8',
      label: 'check',
      baselineLabel: 'ping',
      comparison: versusPing,
    });
  } finally {
    await api.close();
    await sim.close();
  }
}

await measureMode('memory');
if (process.env.REDIS_URL) await measureMode('redis');
else console.log('REDIS_URL is not set: the Redis cache variant is skipped.');
