import { type Infrastructure, type InfrastructureOverrides } from '@repo/server-kit';
import { ApplicationsService } from './applications/applications-service.ts';
import { AppAuthService } from './auth/app-auth-service.ts';
import type { Config } from './config.ts';
import type { DB } from './db/schema.ts';
import { type MediaStorage } from './media/storage.ts';
import { PhotosService } from './photos/photos-service.ts';
import { FriendsService } from './social/friends-service.ts';
import { MailService } from './social/mail-service.ts';
import { NotificationsService } from './social/notifications-service.ts';
import { UsersService } from './users/users-service.ts';
/**
 * The platform's services, created once per process and shared by api.php and the web
 * pages (no module-level singletons, so tests can build many apps side by side).
 */
export interface AppContext extends Infrastructure<DB> {
  config: Config;
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
/** What tests (and `npm start`) may replace: the clock, the Postgres schema, the Redis key prefix. */
export type ContextOverrides = InfrastructureOverrides;
export declare function createContext(config: Config, overrides?: ContextOverrides): Promise<AppContext>;
