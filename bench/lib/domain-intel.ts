/**
 * The Domain Intelligence API as benchmarks run it: its own data directory, optionally pointed
 * at a running simulator (every upstream) and at Redis, an Enterprise key (counted, never
 * refused), listening on loopback.
 */
import { tempDir } from '@repo/server-kit/testing';
import type { UpstreamSim } from '@repo/upstream-sim';
import { simulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import { buildApp } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { ok } from 'domain-intel/src/http/envelope.ts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

export interface RunningDomainIntel {
  app: FastifyInstance;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** `Authorization` header of the Enterprise key. */
  headers: { authorization: string };
  close(): Promise<void>;
}

export interface DomainIntelBenchOptions {
  sim?: UpstreamSim;
  /** Quota and caches in Redis (REDIS_URL), under a key prefix of this run's own. */
  redis?: boolean;
  env?: Record<string, string>;
  extraV1Routes?: FastifyPluginAsync;
}

/** A keyed, quota-counted route that does nothing: the cost of the key-and-quota pipeline alone. */
export async function keyedPingRoute(v1: FastifyInstance): Promise<void> {
  v1.get('/bench/ping', async (request) => ok(request, { pong: true }));
}

export async function startDomainIntel(options: DomainIntelBenchOptions = {}): Promise<RunningDomainIntel> {
  const temp = tempDir('bench-domain-intel');
  const config = loadDomainIntelConfig({
    DATA_DIR: temp.dir,
    LOG_LEVEL: 'silent',
    JOBS_SCHEDULER: 'off',
    ...(options.sim ? simulatorEnv(options.sim) : {}),
    ...(options.redis ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `bench:${Date.now()}:` } : {}),
    ...options.env,
  });
  const app = await buildApp(config, { logger: false, extraV1Routes: options.extraV1Routes });
  const { key } = await app.ctx.accounts.signUp({ email: `bench-${Date.now()}@example.com`, plan: 'enterprise' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url,
    headers: { authorization: `Bearer ${key.key}` },
    async close() {
      await app.close();
      temp.remove();
    },
  };
}
