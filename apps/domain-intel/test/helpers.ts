import { PassThrough } from 'node:stream';
import { type Clock, ManualClock } from '@repo/server-kit';
import {
  childProcessEnv,
  type DatabaseTarget,
  redisServerSkip,
  redisTarget,
  redisTargets,
} from '@repo/server-kit/testing';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { PlanId } from '../src/accounts/plans.ts';
import { buildApp } from '../src/app.ts';
import { type Config, loadDomainIntelConfig } from '../src/config.ts';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: ManualClock;
  /** A fresh account with a key on the given plan; returns the key. */
  keyFor(plan: PlanId, email?: string): Promise<string>;
  /** Another API instance on the same database and Redis prefix (closed with this one). */
  spawnInstance(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  target: DatabaseTarget;
  /**
   * Use Redis (REDIS_URL) for quota and cache, with a key prefix of this run's own; `cluster`: a
   * Redis Cluster this test process starts (REDIS_CLUSTER_URLS), with a prefix of its own too.
   */
  redis?: boolean | 'cluster';
  clock?: ManualClock;
  env?: Record<string, string>;
  /** Extra routes inside the authenticated /v1 scope (see BuildOptions.extraV1Routes). */
  extraV1Routes?: FastifyPluginAsync;
  logStream?: NodeJS.WritableStream;
}

let emailCounter = 0;

/** A Domain Intelligence app on a fresh database (and Redis prefix), quiet, with a settable clock. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const provisioned = await options.target.provision();
  const redis =
    options.redis === 'cluster'
      ? await redisTargets()
          .find((kind) => kind.name === 'redis-cluster')!
          .provision()
      : options.redis
        ? { ...redisTarget().provision(), env: process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {} }
        : undefined;
  const config = loadDomainIntelConfig({
    NODE_ENV: 'test',
    DATA_DIR: provisioned.dataDir,
    ...(provisioned.databaseUrl ? { DATABASE_URL: provisioned.databaseUrl } : {}),
    ...redis?.env,
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    // Tests write feed rows straight into the table between requests, which the in-memory feed
    // index (the production default) only sees after FeedService.invalidate(); its own tests opt in.
    FEED_INDEX: 'off',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock('2026-03-10T12:00:00Z');
  const build = () =>
    buildApp(config, {
      logger: options.logStream !== undefined,
      logStream: options.logStream,
      clock: clock as Clock,
      postgresSchema: provisioned.postgresSchema,
      redisKeyPrefix: redis?.keyPrefix,
      extraV1Routes: options.extraV1Routes,
    });
  const app = await build();
  const instances: FastifyInstance[] = [];
  return {
    app,
    config,
    clock,
    async keyFor(plan, email = `user${++emailCounter}-${Date.now()}@example.com`) {
      const { key } = await app.ctx.accounts.signUp({ email, plan });
      return key.key;
    },
    async spawnInstance() {
      const instance = await build();
      instances.push(instance);
      return instance;
    },
    async close() {
      await Promise.all(instances.map((instance) => instance.close()));
      await app.close();
      await redis?.cleanup();
      await provisioned.cleanup();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A call to the app as the holder of `key` (its bearer header), with `payload` as the JSON body when given. */
export const injectAs = (
  t: TestApp,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

/**
 * Database targets crossed with the quota store: SQL always, Redis when REDIS_URL is set, and with
 * `cluster` a Redis Cluster of the test's own (where redis-server is installed).
 */
/** The environment a child process needs to open this test app's database and DATA_DIR. */
export function childEnv(t: TestApp): NodeJS.ProcessEnv {
  return childProcessEnv({
    dataDir: t.config.DATA_DIR,
    databaseUrl: t.config.DATABASE_URL,
    postgresSchema: t.app.ctx.database.postgresSchema,
  });
}

export function quotaStoreVariants(targets: DatabaseTarget[], options: { cluster?: boolean } = {}) {
  const redisSkip = redisTarget().skip;
  return targets.flatMap((target) => [
    { name: `${target.name} + sql quota`, target, redis: false as boolean | 'cluster', skip: target.skip },
    {
      name: `${target.name} + redis quota`,
      target,
      redis: true as boolean | 'cluster',
      skip: target.skip || redisSkip,
    },
    ...(options.cluster
      ? [
          {
            name: `${target.name} + redis cluster quota`,
            target,
            redis: 'cluster' as boolean | 'cluster',
            skip: target.skip || redisServerSkip(),
          },
        ]
      : []),
  ]);
}

/** A log stream for createTestApp and the lines written to it so far (one JSON line each). */
export function capturedLog(): { logStream: NodeJS.WritableStream; logLines: string[] } {
  const logLines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
  return { logStream, logLines };
}
