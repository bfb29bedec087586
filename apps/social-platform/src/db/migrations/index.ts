import type { MigrationSet } from '@repo/server-kit';
import { usersMigration } from './0001_users.ts';
import { socialMigration } from './0002_social.ts';
import { photosMigration } from './0003_photos.ts';
import { applicationsMigration } from './0004_applications.ts';
import { appPlatformMigration } from './0005_app_platform.ts';
import { webSessionsMigration } from './0050_web_sessions.ts';
import { appSecretsMigration } from './0100_app_secrets.ts';
import { testUsersMigration } from './0120_test_users.ts';

/**
 * Every migration of the platform, one file each, run in name order on SQLite and Postgres.
 * 0001–0049 are the platform model's; 0050–0059 belong to the web pages (sessions …).
 * Append new ones; never edit one that has been released.
 */
export const migrations: MigrationSet = (dialect) => ({
  '0001_users': usersMigration(dialect),
  '0002_social': socialMigration(dialect),
  '0003_photos': photosMigration(dialect),
  '0004_applications': applicationsMigration(dialect),
  '0005_app_platform': appPlatformMigration(dialect),
  '0050_web_sessions': webSessionsMigration(dialect),
  '0100_app_secrets': appSecretsMigration(dialect),
  '0120_test_users': testUsersMigration(),
});
