import {
  type Clock,
  createDatabase,
  createRedis,
  type Database,
  migrateToLatest,
  type Redis,
  systemClock,
} from '@repo/server-kit';
import { AccountsRepository } from './accounts/accounts-repository.ts';
import { AccountsService } from './accounts/accounts-service.ts';
import type { Config } from './config.ts';
import { migrations } from './db/migrations/index.ts';
import type { DB } from './db/schema.ts';
import { QuotaService } from './quota/quota-service.ts';
import { RedisQuotaStore } from './quota/redis-quota-store.ts';
import { SqlQuotaStore } from './quota/sql-quota-store.ts';

/**
 * Everything a request handler or job needs, created once per process and passed
 * explicitly (no module-level singletons, so tests can build many apps side by side).
 */
export interface AppContext {
  config: Config;
  database: Database<DB>;
  redis: Redis | undefined;
  clock: Clock;
  accounts: AccountsService;
  quota: QuotaService;
  close(): Promise<void>;
}

export interface ContextOverrides {
  clock?: Clock;
  /** Tests give each run its own Postgres schema. */
  postgresSchema?: string;
  /** Tests give each run its own Redis key prefix. */
  redisKeyPrefix?: string;
}

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const database = createDatabase<DB>({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    sqliteFile: 'domain-intel.sqlite',
    postgresSchema: overrides.postgresSchema ?? config.POSTGRES_SCHEMA,
  });
  await migrateToLatest(database, migrations);
  const redis = config.REDIS_URL
    ? createRedis({ url: config.REDIS_URL, keyPrefix: overrides.redisKeyPrefix ?? config.REDIS_KEY_PREFIX })
    : undefined;
  const clock = overrides.clock ?? systemClock;
  const quotaStore = redis ? new RedisQuotaStore(redis) : new SqlQuotaStore(database.db);
  return {
    config,
    database,
    redis,
    clock,
    accounts: new AccountsService(new AccountsRepository(database.db), clock),
    quota: new QuotaService(quotaStore, clock),
    async close() {
      redis?.disconnect();
      await database.close();
    },
  };
}
