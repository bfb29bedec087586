/**
 * Foundation overhead: an authenticated, quota-counted /v1 call (key lookup by hash, plan,
 * atomic daily counter, rate-limit headers, envelope, request logging as configured) against
 * a bare Fastify hello-world, each server in its own process, with the quota in SQLite and in
 * Redis. Target: ratio >= 0.5 (throughput and CPU per request).
 *
 * Two traffic shapes: one key for every request (`api-overhead-<store>`: a turn's calls are one
 * account's), and 16 accounts' keys taken in turn request by request (`…-many-keys`: a turn holds
 * calls of many accounts, as real traffic does; each account is its own quota counter). And one
 * caller alone (`…-one-connection`, judged against nothing): as a lightly loaded server sees each
 * call, its own turn and its own quota commit, with p50 and p95 latency (what a stall inside a
 * commit, such as a checkpoint of the SQLite file, shows in).
 */
import { startDomainIntel } from './lib/domain-intel.ts';
import { reportAgainstHelloWorld } from './lib/harness.ts';

const MANY_ACCOUNTS = 16;

type Shape = 'one-key' | 'many-keys' | 'one-connection';

async function measureMode(mode: 'sqlite' | 'redis', shape: Shape) {
  const manyKeys = shape === 'many-keys';
  const api = await startDomainIntel({
    redis: mode === 'redis',
    keyedPing: true,
    accounts: manyKeys ? MANY_ACCOUNTS : 1,
  });
  try {
    await reportAgainstHelloWorld({
      name: `api-overhead-${mode}${shape === 'one-key' ? '' : `-${shape}`}`,
      target: shape === 'one-connection' ? undefined : '>= 0.5',
      label: 'api',
      candidate: manyKeys
        ? {
            server: api,
            path: '/v1/bench/ping',
            rotatingHeader: { name: 'Authorization', values: api.info.authorizations },
          }
        : { server: api, path: '/v1/bench/ping', headers: api.info.headers },
      details: manyKeys ? { accounts: MANY_ACCOUNTS } : undefined,
      compare: shape === 'one-connection' ? { connections: 1 } : undefined,
    });
  } finally {
    await api.close();
  }
}

const only = process.env.BENCH_API_OVERHEAD_SHAPE;
for (const shape of ['one-key', 'many-keys', 'one-connection'] as const) {
  if (only && only !== shape) continue;
  await measureMode('sqlite', shape);
  if (process.env.REDIS_URL) await measureMode('redis', shape);
  else console.log('REDIS_URL is not set: the Redis quota variant is skipped.');
}
