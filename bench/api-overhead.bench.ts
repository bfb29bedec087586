/**
 * Foundation overhead: an authenticated, quota-counted /v1 call (key lookup by hash, plan,
 * atomic daily counter, rate-limit headers, envelope) against a bare Fastify hello-world,
 * side by side in one run, with the quota in SQLite and in Redis. Target: ratio >= 0.5.
 */
import { tempDir } from '@repo/server-kit/testing';
import { buildApp } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { ok } from 'domain-intel/src/http/envelope.ts';
import type { FastifyInstance } from 'fastify';
import { compareLoad, report, startHelloWorld } from './lib/harness.ts';

async function pingRoute(v1: FastifyInstance) {
  v1.get('/bench/ping', async (request) => ok(request, { pong: true }));
}

async function measureMode(mode: 'sqlite' | 'redis') {
  const temp = tempDir('bench-api');
  const config = loadDomainIntelConfig({
    DATA_DIR: temp.dir,
    LOG_LEVEL: 'silent',
    ...(mode === 'redis' ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `bench:${Date.now()}:` } : {}),
  });
  const app = await buildApp(config, { logger: false, extraV1Routes: pingRoute });
  const { key } = await app.ctx.accounts.signUp({ email: `bench-${mode}@example.com`, plan: 'enterprise' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const hello = await startHelloWorld();
  try {
    const {
      ratio,
      baseline,
      candidate: api,
    } = await compareLoad(
      { url: hello.url },
      { url: `${url}/v1/bench/ping`, headers: { authorization: `Bearer ${key.key}` } },
    );
    report({
      name: `api-overhead-${mode}`,
      ratio,
      target: '>= 0.5',
      details: {
        api_rps: api.requestsPerSecond,
        hello_rps: baseline.requestsPerSecond,
        api_p95_ms: api.p95Ms,
        hello_p95_ms: baseline.p95Ms,
      },
    });
  } finally {
    await hello.close();
    await app.close();
    temp.remove();
  }
}

await measureMode('sqlite');
if (process.env.REDIS_URL) await measureMode('redis');
else console.log('REDIS_URL is not set: the Redis quota variant is skipped.');
