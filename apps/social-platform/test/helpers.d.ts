import { ManualClock } from '@repo/server-kit';
import { type DatabaseTarget } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { User } from '../src/users/users-service.ts';
export declare const PUBLIC_URL = 'https://platform.test';
export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  clock: ManualClock;
  /** A new user with a unique user name (`prefix-N`). */
  user(
    prefix?: string,
    extra?: {
      countryIso?: string;
      gender?: string;
    },
  ): Promise<User>;
  /** A one-time key of a fresh app for `userId`, traded for a token through token.php. */
  tokenFor(userId: number): Promise<string>;
  /** GET api.php with these parameters; returns status and parsed body. */
  call(params: Record<string, string | number>): Promise<{
    status: number;
    body: ApiBody;
  }>;
  close(): Promise<void>;
}
export interface ApiBody {
  api: {
    total: number;
    pages: number;
    current_page: number;
  };
  output: any;
}
export interface TestAppOptions {
  target: DatabaseTarget;
  /** Use Redis (REDIS_URL) for rate-limit counters, under a key prefix of this run's own. */
  redis?: boolean;
  clock?: ManualClock;
  env?: Record<string, string>;
}
/** A platform on a fresh database and data directory, quiet, with a settable clock. */
export declare function createTestApp(options: TestAppOptions): Promise<TestApp>;
