import path from 'node:path';
import {
  type Infrastructure,
  type InfrastructureOverrides,
  openInfrastructure,
  TableWritesPlugin,
} from '@repo/server-kit';
import { WebhookSender } from '@repo/webhooks/webhook-sender';
import { ApplicationsService } from './applications/applications-service.ts';
import { GrantsService } from './applications/grants-service.ts';
import { keyFromFile, parseSecretKey, SecretBox } from './applications/secret-box.ts';
import { UsageService } from './applications/usage-service.ts';
import { AppAuthService } from './auth/app-auth-service.ts';
import { AppEvents } from './callbacks/app-events.ts';
import { AppRemoval } from './callbacks/app-removal.ts';
import { ConsentChanges } from './callbacks/consent-changes.ts';
import { DataDeletion } from './callbacks/data-deletion.ts';
import type { Config } from './config.ts';
import { migrations } from './db/migrations/index.ts';
import type { DB } from './db/schema.ts';
import { createRateLimit, type RateLimitCheck } from './http/rate-limit.ts';
import { MediaUrlSigner } from './media/signed-urls.ts';
import { LocalDiskStorage, type MediaStorage } from './media/storage.ts';
import { PhotosService } from './photos/photos-service.ts';
import { FriendsService } from './social/friends-service.ts';
import { MailService } from './social/mail-service.ts';
import { NotificationsService } from './social/notifications-service.ts';
import { TestUsersService } from './users/test-users.ts';
import { UsersService } from './users/users-service.ts';
import { WebSessionStore } from './web/session-store.ts';

/**
 * The platform's services, created once per process and shared by api.php and the web
 * pages (no module-level singletons, so tests can build many apps side by side).
 */
export interface AppContext extends Infrastructure<DB> {
  config: Config;
  storage: MediaStorage;
  /** Signs and checks the expiring URLs of friends-only and private photos. */
  mediaSigner: MediaUrlSigner;
  /** Directory the local media storage writes to (served at /media/). */
  mediaDir: string;
  users: UsersService;
  /** Console-made test users of an app, each reaching only its app's other test users. */
  testUsers: TestUsersService;
  friends: FriendsService;
  mail: MailService;
  notifications: NotificationsService;
  photos: PhotosService;
  apps: ApplicationsService;
  grants: GrantsService;
  /** Counts one notification.add of an app to a user; 429 over APP_NOTIFICATION_LIMIT. */
  checkAppNotificationRate: RateLimitCheck;
  usage: UsageService;
  appAuth: AppAuthService;
  /** Events for apps' callback URLs: recorded, sent, retried, logged. */
  appEvents: AppEvents;
  /** A user removes an app: grant, tokens, `app.deauthorized`, optionally a data deletion request. */
  appRemoval: AppRemoval;
  /** A user allows an app: the grant, and `app.permissions_changed` when it changes one. */
  consent: ConsentChanges;
  dataDeletion: DataDeletion;
  close(): Promise<void>;
}

/** What tests (and `npm start`) may replace: the clock, the Postgres schema, the Redis key prefix. */
export type ContextOverrides = InfrastructureOverrides;

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const { database, redis, clock } = await openInfrastructure<DB>(
    config,
    { sqliteFile: 'social-platform.sqlite', migrations },
    overrides,
  );
  // Every write of the tables a cached token row or user row is made of drops those caches (appAuth, users).
  let caches: { appAuth: AppAuthService; users: UsersService } | undefined;
  const forgetCachedRows = () => {
    caches?.appAuth.forgetCachedTokens();
    caches?.users.forgetRecent();
  };
  const db = database.db.withPlugin(
    new TableWritesPlugin(['api_tokens', 'applications', 'app_grants', 'users'], forgetCachedRows),
  );
  const mediaDir = path.resolve(config.DATA_DIR, 'media');
  const storage = new LocalDiskStorage(mediaDir, config.PUBLIC_URL);
  await storage.sweepLeftovers(); // half-written uploads of a crashed process
  // One key for every instance, kept with the web pages' other server secrets (web/ owns them).
  const mediaSigner = new MediaUrlSigner(
    await new WebSessionStore(db, clock).secret('media_url_key'),
    config.MEDIA_URL_TTL_SECONDS,
    clock,
  );
  const users = new UsersService(db, clock, config.USER_CACHE_TTL_MS);
  const friends = new FriendsService(db, clock);
  // The key app secrets are sealed with stays out of the database (applications/secret-box.ts).
  const secretBox = new SecretBox(
    config.APP_SECRET_KEY
      ? parseSecretKey(config.APP_SECRET_KEY)
      : await keyFromFile(path.resolve(config.DATA_DIR, 'app-secret.key')),
  );
  const apps = new ApplicationsService(db, clock, secretBox);
  await apps.sealMissingSecrets();
  const grants = new GrantsService(db, clock);
  const appAuth = new AppAuthService(db, clock, users, apps, grants, {
    keyTtlMs: config.KEY_TTL_SECONDS * 1000,
    tokenTtlMs: config.TOKEN_TTL_SECONDS * 1000,
    tokenCacheTtlMs: config.TOKEN_CACHE_TTL_MS,
  });
  caches = { appAuth, users };
  const callbackSender = new WebhookSender({
    allowInsecure: config.CALLBACK_ALLOW_INSECURE,
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    userAgent: 'social-platform-callbacks/1',
  });
  const appEvents = new AppEvents(db, clock, apps, callbackSender, {
    allowInsecure: config.CALLBACK_ALLOW_INSECURE,
    deliverOnEmit: true,
    log: overrides.log,
  });
  const dataDeletion = new DataDeletion(db, clock, apps, appEvents, config.PUBLIC_URL);
  const usage = new UsageService(db, clock, { flushEveryMs: config.USAGE_FLUSH_MS, log: overrides.log });
  return {
    config,
    database,
    redis,
    clock,
    storage,
    mediaSigner,
    mediaDir,
    users,
    testUsers: new TestUsersService(db, clock),
    friends,
    mail: new MailService(db, clock),
    notifications: new NotificationsService(db, clock),
    photos: new PhotosService(
      db,
      storage,
      mediaSigner,
      friends,
      users,
      clock,
      {
        maxBytes: config.UPLOAD_MAX_BYTES,
        maxPixels: config.UPLOAD_MAX_PIXELS,
        concurrency: config.IMAGE_CONCURRENCY,
      },
      config.USER_CACHE_TTL_MS,
    ),
    apps,
    grants,
    checkAppNotificationRate: createRateLimit({
      redis,
      name: 'app-notifications',
      max: config.APP_NOTIFICATION_LIMIT,
      windowSeconds: config.APP_NOTIFICATION_WINDOW_SECONDS,
      what: 'notifications from this app to this user',
    }),
    usage,
    appAuth,
    appEvents,
    appRemoval: new AppRemoval(clock, appAuth, appEvents, dataDeletion),
    consent: new ConsentChanges(grants, appEvents),
    dataDeletion,
    async close() {
      // The usage counts still in memory are written before the database goes.
      await usage.stop().catch((error) => overrides.log?.warn({ err: error }, 'app usage lost on shutdown'));
      await appEvents.settled();
      await callbackSender.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
