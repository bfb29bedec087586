import { type Clock, systemClock } from './clock.ts';
import { createDatabase, type Database } from './database.ts';
import { type MigrationSet, migrateToLatest } from './migrations.ts';
import { connectRedis, createRedis, type Redis, type RedisLog } from './redis.ts';

/** What tests (and `npm start`) may replace when a service opens its infrastructure. */
export interface InfrastructureOverrides {
  clock?: Clock;
  /** Tests give each run its own Postgres schema. */
  postgresSchema?: string;
  /** Tests give each run its own Redis key prefix. */
  redisKeyPrefix?: string;
  /** Where infrastructure reports outages (Redis unreachable, back again); the app's logger. */
  log?: RedisLog;
}

export interface InfrastructureSettings {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  POSTGRES_SCHEMA: string;
  REDIS_URL?: string | undefined;
  REDIS_CLUSTER_URLS?: readonly string[] | undefined;
  REDIS_KEY_PREFIX: string;
}

export interface Infrastructure<DB> {
  database: Database<DB>;
  redis: Redis | undefined;
  clock: Clock;
}

/**
 * A service's database (SQLite file under DATA_DIR, or its own schema in Postgres), migrated to
 * the latest version, its Redis client when REDIS_URL (or REDIS_CLUSTER_URLS) is set, and its clock.
 */
export async function openInfrastructure<DB>(
  settings: InfrastructureSettings,
  service: { sqliteFile: string; migrations: MigrationSet },
  overrides: InfrastructureOverrides = {},
): Promise<Infrastructure<DB>> {
  const database = createDatabase<DB>({
    databaseUrl: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    sqliteFile: service.sqliteFile,
    postgresSchema: overrides.postgresSchema ?? settings.POSTGRES_SCHEMA,
  });
  await migrateToLatest(database, service.migrations);
  const redis =
    settings.REDIS_URL || settings.REDIS_CLUSTER_URLS
      ? await connectRedis(
          createRedis({
            url: settings.REDIS_URL,
            clusterUrls: settings.REDIS_CLUSTER_URLS,
            keyPrefix: overrides.redisKeyPrefix ?? settings.REDIS_KEY_PREFIX,
            ...(overrides.log ? { log: overrides.log } : {}),
          }),
        )
      : undefined;
  return { database, redis, clock: overrides.clock ?? systemClock };
}
