import { type Clock, ManualClock } from '@repo/server-kit';
import { type DatabaseTarget, redisTarget, redisTargets } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { PERMISSION_NAMES } from '../src/applications/permissions.ts';
import { type Config, loadPlatformConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { User } from '../src/users/users-service.ts';

export const PUBLIC_URL = 'https://platform.test';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  clock: ManualClock;
  /** A new user with a unique user name (`prefix-N`). */
  user(prefix?: string, extra?: { countryIso?: string; gender?: string }): Promise<User>;
  /** A one-time key of the test app (every permission, allowed by the user), traded for a token through token.php. */
  tokenFor(userId: number): Promise<string>;
  /** GET api.php with these parameters; returns status and parsed body. */
  call(params: Record<string, string | number>): Promise<{ status: number; body: ApiBody }>;
  /** Stops the platform gracefully and starts a new one on the same database (`app` and `ctx` change). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface ApiBody {
  api: { total: number; pages: number; current_page: number };
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever a method outputs
  output: any;
}

export interface TestAppOptions {
  target: DatabaseTarget;
  /**
   * Use Redis (REDIS_URL) for rate-limit counters, under a key prefix of this run's own; `cluster`:
   * a Redis Cluster this test process starts (REDIS_CLUSTER_URLS), with a prefix of its own too.
   */
  redis?: boolean | 'cluster';
  clock?: ManualClock;
  env?: Record<string, string>;
}

let counter = 0;

/** A platform on a fresh database and data directory, quiet, with a settable clock. */
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
  const config = loadPlatformConfig({
    NODE_ENV: 'test',
    DATA_DIR: provisioned.dataDir,
    PUBLIC_URL,
    ...(provisioned.databaseUrl ? { DATABASE_URL: provisioned.databaseUrl } : {}),
    ...redis?.env,
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock('2026-03-10T12:00:00Z');
  const open = () =>
    buildApp(config, {
      logger: false,
      clock: clock as Clock,
      postgresSchema: provisioned.postgresSchema,
      redisKeyPrefix: redis?.keyPrefix,
    });
  let appId: number | undefined;
  const first = await open();
  const testApp: TestApp = {
    app: first,
    ctx: first.platform,
    config,
    clock,
    async user(prefix = 'user', extra = {}) {
      const n = ++counter;
      return testApp.ctx.users.create({
        userName: `${prefix}-${n}`,
        fullName: `${prefix[0]?.toUpperCase()}${prefix.slice(1)} Number${n}`,
        email: `${prefix}${n}@example.com`,
        password: 'correct horse battery',
        ...extra,
      });
    },
    async tokenFor(userId) {
      if (appId === undefined) {
        const owner = await testApp.user('developer');
        const created = await testApp.ctx.apps.create({
          name: 'Test app',
          canvasUrl: 'https://app.test/',
          ownerId: owner.id,
          permissions: PERMISSION_NAMES,
          published: true,
        });
        appId = created.id;
      }
      await testApp.ctx.grants.grant(appId, userId, PERMISSION_NAMES);
      const key = await testApp.ctx.appAuth.issueAppKey(appId, userId);
      const response = await testApp.app.inject({ url: '/token.php', query: { key } });
      if (response.statusCode !== 200) throw new Error(`token.php failed: ${response.body}`);
      return response.json().token;
    },
    async call(params) {
      const query = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
      const response = await testApp.app.inject({ url: '/api.php', query });
      return { status: response.statusCode, body: response.json() };
    },
    async restart() {
      await testApp.app.close();
      const reopened = await open();
      testApp.app = reopened;
      testApp.ctx = reopened.platform;
    },
    async close() {
      await testApp.app.close();
      await redis?.cleanup();
      await provisioned.cleanup();
    },
  };
  return testApp;
}
