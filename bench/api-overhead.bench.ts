/**
 * Foundation overhead: an authenticated, quota-counted /v1 call (key lookup by hash, plan,
 * atomic daily counter, rate-limit headers, envelope, request logging as configured) against
 * a bare Fastify hello-world, each server in its own process, with the quota in SQLite and in
 * Redis. Target: ratio >= 0.5 (throughput and CPU per request).
 *
 * Two traffic shapes: one key for every request (`api-overhead-<store>`: a turn's calls are one
 * account's), and 16 accounts' keys taken in turn request by request (`…-many-keys`: a turn holds
 * calls of many accounts, as real traffic does; each account is its own quota counter).
 */
import { startDomainIntel } from './lib/domain-intel.ts';
import { reportAgainstHelloWorld } from './lib/harness.ts';

const MANY_ACCOUNTS = 16;

async function measureMode(mode: 'sqlite' | 'redis', manyKeys: boolean) {
  const api = await startDomainIntel({
    redis: mode === 'redis',
    keyedPing: true,
    accounts: manyKeys ? MANY_ACCOUNTS : 1,
  });
  try {
    await reportAgainstHelloWorld({
      name: `api-overhead-${mode}${manyKeys ? '-many-keys' : ''}`,
      target: '>= 0.5',
      label: 'api',
      candidate: manyKeys
        ? {
            server: api,
            path: '/v1/bench/ping',
            rotatingHeader: { name: 'Authorization', values: api.info.authorizations },
          }
        : { server: api, path: '/v1/bench/ping', headers: api.info.headers },
      details: manyKeys ? { accounts: MANY_ACCOUNTS } : undefined,
    });
  } finally {
    await api.close();
  }
}

const only = process.env.BENCH_API_OVERHEAD_SHAPE;
for (const manyKeys of [false, true]) {
  if (only && only !== (manyKeys ? 'many-keys' : 'one-key')) continue;
  await measureMode('sqlite', manyKeys);
  if (process.env.REDIS_URL) await measureMode('redis', manyKeys);
  else console.log('REDIS_URL is not set: the Redis quota variant is skipped.');
}
