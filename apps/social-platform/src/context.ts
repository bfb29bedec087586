import path from 'node:path';
import {
  type Clock,
  createDatabase,
  createRedis,
  type Database,
  migrateToLatest,
  type Redis,
  systemClock,
} from '@repo/server-kit';
import { ApplicationsService } from './applications/applications-service.ts';
import { AppAuthService } from './auth/app-auth-service.ts';
import type { Config } from './config.ts';
import { migrations } from './db/migrations/index.ts';
import type { DB } from './db/schema.ts';
import { LocalDiskStorage, type MediaStorage } from './media/storage.ts';
import { PhotosService } from './photos/photos-service.ts';
import { FriendsService } from './social/friends-service.ts';
import { MailService } from './social/mail-service.ts';
import { NotificationsService } from './social/notifications-service.ts';
import { UsersService } from './users/users-service.ts';

/**
 * The platform's services, created once per process and shared by api.php and the web
 * pages (no module-level singletons, so tests can build many apps side by side).
 */
export interface AppContext {
  config: Config;
  database: Database<DB>;
  redis: Redis | undefined;
  clock: Clock;
  storage: MediaStorage;
  /** Directory the local media storage writes to (served at /media/). */
  mediaDir: string;
  users: UsersService;
  friends: FriendsService;
  mail: MailService;
  notifications: NotificationsService;
  photos: PhotosService;
  apps: ApplicationsService;
  appAuth: AppAuthService;
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
    sqliteFile: 'social-platform.sqlite',
    postgresSchema: overrides.postgresSchema ?? config.POSTGRES_SCHEMA,
  });
  await migrateToLatest(database, migrations);
  const redis = config.REDIS_URL
    ? createRedis({ url: config.REDIS_URL, keyPrefix: overrides.redisKeyPrefix ?? config.REDIS_KEY_PREFIX })
    : undefined;
  const clock = overrides.clock ?? systemClock;
  const db = database.db;
  const mediaDir = path.resolve(config.DATA_DIR, 'media');
  const storage = new LocalDiskStorage(mediaDir, config.PUBLIC_URL);
  const users = new UsersService(db, clock);
  const friends = new FriendsService(db, clock);
  const apps = new ApplicationsService(db, clock);
  return {
    config,
    database,
    redis,
    clock,
    storage,
    mediaDir,
    users,
    friends,
    mail: new MailService(db, clock),
    notifications: new NotificationsService(db, clock),
    photos: new PhotosService(db, storage, friends, clock, {
      maxBytes: config.UPLOAD_MAX_BYTES,
      maxPixels: config.UPLOAD_MAX_PIXELS,
      concurrency: config.IMAGE_CONCURRENCY,
    }),
    apps,
    appAuth: new AppAuthService(db, clock, users, apps, {
      keyTtlMs: config.KEY_TTL_SECONDS * 1000,
      tokenTtlMs: config.TOKEN_TTL_SECONDS * 1000,
    }),
    async close() {
      redis?.disconnect();
      await database.close();
    },
  };
}
