/**
 * Foundation overhead: an authenticated, quota-counted /v1 call (key lookup by hash, plan,
 * atomic daily counter, rate-limit headers, envelope, request logging as configured) against
 * a bare Fastify hello-world, each server in its own process, with the quota in SQLite and in
 * Redis. Target: ratio >= 0.5 (throughput and CPU per request).
 */
import { startDomainIntel } from './lib/domain-intel.ts';
import { reportAgainstHelloWorld } from './lib/harness.ts';

async function measureMode(mode: 'sqlite' | 'redis') {
  const api = await startDomainIntel({ redis: mode === 'redis', keyedPing: true });
  try {
    await reportAgainstHelloWorld({
      name: `api-overhead-${mode}`,
      target: '>= 0.5',
      label: 'api',
      candidate: { server: api, path: '/v1/bench/ping', headers: api.info.headers },
    });
  } finally {
    await api.close();
  }
}

await measureMode('sqlite');
if (process.env.REDIS_URL) await measureMode('redis');
else console.log('REDIS_URL is not set: the Redis quota variant is skipped.');
