/**
 * The Domain Intelligence API as benchmarks run it, in a process of its own (see
 * server-process.ts): its own data directory (or one the benchmark prepared), optionally
 * pointed at a running simulator (every upstream) and at Redis, an Enterprise key (counted,
 * never refused), logging as the configuration says (as in production; lines go to /dev/null).
 */
import { redisTarget, tempDir } from '@repo/server-kit/testing';
import type { UpstreamSim } from '@repo/upstream-sim';
import { simulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import { buildApp } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { ok } from 'domain-intel/src/http/envelope.ts';
import type { FastifyInstance } from 'fastify';
import type { ServerProcessOptions, StartedServer } from './server-process.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/** JSON-only: it crosses into the server process. */
export interface DomainIntelServerOptions {
  /** Environment for loadDomainIntelConfig (simulator URLs, DATA_DIR, DATABASE_URL, …). */
  env?: Record<string, string>;
  /** Quota and caches in Redis (REDIS_URL), under a key prefix of this run's own. */
  redis?: boolean;
  /** Mount GET /v1/bench/ping: a keyed, quota-counted route that does nothing. */
  keyedPing?: boolean;
  /** Enterprise accounts to create, one key each (default 1): many accounts' calls in a turn. */
  accounts?: number;
  /** LOG_LEVEL=silent and no logger (for latency benchmarks that measure upstream waits). */
  quiet?: boolean;
  /**
   * Listen only once the in-memory feed index is built: its build's CPU (a worker thread of the
   * same process) would otherwise be counted against the first requests measured.
   */
  feedIndexReady?: boolean;
}

export interface DomainIntelInfo {
  /** `Authorization` header of the (first) Enterprise key. */
  headers: { authorization: string };
  /** `Authorization` header of every account's key (`accounts` of them). */
  authorizations: string[];
}

/** A keyed, quota-counted route that does nothing: the cost of the key-and-quota pipeline alone. */
async function keyedPingRoute(v1: FastifyInstance): Promise<void> {
  v1.get('/bench/ping', async (request) => ok(request, { pong: true }));
}

/** Runs in the server process. */
export async function domainIntelServer(options: DomainIntelServerOptions): Promise<StartedServer<DomainIntelInfo>> {
  const temp = options.env?.DATA_DIR ? null : tempDir('bench-domain-intel');
  // The quota's counters live 34 days (the usage history): a prefix of this run's, deleted at close.
  const redisKeys = options.redis ? redisTarget().provision() : null;
  const config = loadDomainIntelConfig({
    // As deployed (docs/running-at-scale.md): templates cached, production defaults.
    NODE_ENV: 'production',
    JOBS_SCHEDULER: 'off',
    ...(temp ? { DATA_DIR: temp.dir } : {}),
    ...(redisKeys ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: redisKeys.keyPrefix } : {}),
    ...(options.quiet ? { LOG_LEVEL: 'silent' } : {}),
    ...options.env,
  });
  const app = await buildApp(config, {
    logger: !options.quiet,
    extraV1Routes: options.keyedPing ? keyedPingRoute : undefined,
  });
  const authorizations: string[] = [];
  for (let i = 0; i < (options.accounts ?? 1); i++) {
    const { key } = await app.ctx.accounts.signUp({
      email: `bench-${process.pid}-${Date.now()}-${i}@example.com`,
      plan: 'enterprise',
    });
    authorizations.push(`Bearer ${key.key}`);
  }
  if (options.feedIndexReady) await app.ctx.feed.index();
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    info: { headers: { authorization: authorizations[0]! }, authorizations },
    async close() {
      await app.close();
      await redisKeys?.cleanup();
      temp?.remove();
    },
  };
}

/** Starts the API in its own process; `sim` (running in the benchmark's process) serves every upstream. */
export async function startDomainIntel(
  options: DomainIntelServerOptions & { sim?: UpstreamSim } = {},
  processOptions: ServerProcessOptions = {},
): Promise<ServerProcess<DomainIntelInfo>> {
  const { sim, ...rest } = options;
  const env = { ...(sim ? await simulatorEnv(sim) : {}), ...rest.env };
  return startServerProcess(
    new URL('./domain-intel.ts', import.meta.url),
    'domainIntelServer',
    { ...rest, env },
    { cpuProfileDir: process.env.BENCH_CPU_PROF_DIR, ...processOptions },
  );
}
