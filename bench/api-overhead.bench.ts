/**
 * Foundation overhead: an authenticated, quota-counted /v1 call (key lookup by hash, plan,
 * atomic daily counter, rate-limit headers, envelope) against a bare Fastify hello-world,
 * side by side in one run, with the quota in SQLite and in Redis. Target: ratio >= 0.5.
 */
import { keyedPingRoute, startDomainIntel } from './lib/domain-intel.ts';
import { reportAgainstHelloWorld } from './lib/harness.ts';

async function measureMode(mode: 'sqlite' | 'redis') {
  const api = await startDomainIntel({ redis: mode === 'redis', extraV1Routes: keyedPingRoute });
  try {
    await reportAgainstHelloWorld({
      name: `api-overhead-${mode}`,
      target: '>= 0.5',
      label: 'api',
      candidate: { url: `${api.url}/v1/bench/ping`, headers: api.headers },
    });
  } finally {
    await api.close();
  }
}

await measureMode('sqlite');
if (process.env.REDIS_URL) await measureMode('redis');
else console.log('REDIS_URL is not set: the Redis quota variant is skipped.');
