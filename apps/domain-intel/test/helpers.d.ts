import { ManualClock } from '@repo/server-kit';
import { type DatabaseTarget } from '@repo/server-kit/testing';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { PlanId } from '../src/accounts/plans.ts';
import { type Config } from '../src/config.ts';
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
  /** Use Redis (REDIS_URL) for quota and cache, with a key prefix of this run's own. */
  redis?: boolean;
  clock?: ManualClock;
  env?: Record<string, string>;
  /** Extra routes inside the authenticated /v1 scope (see BuildOptions.extraV1Routes). */
  extraV1Routes?: FastifyPluginAsync;
  logStream?: NodeJS.WritableStream;
}
/** A Domain Intelligence app on a fresh database (and Redis prefix), quiet, with a settable clock. */
export declare function createTestApp(options: TestAppOptions): Promise<TestApp>;
export declare const bearer: (key: string) => {
  authorization: string;
};
/** Database targets crossed with the quota store: SQL always, Redis when REDIS_URL is set. */
export declare function quotaStoreVariants(targets: DatabaseTarget[]): {
  name: string;
  target: DatabaseTarget;
  redis: boolean;
  skip: string | false;
}[];
