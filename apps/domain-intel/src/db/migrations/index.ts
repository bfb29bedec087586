import type { MigrationSet } from '@repo/server-kit';
import { accountsMigration } from './0001_accounts.ts';
import { zonesMigration } from './0020_zones.ts';
import { feedMigration } from './0030_feed.ts';
import { feedCoveringIndexesMigration } from './0031_feed_covering_indexes.ts';
import { feedVersionMigration } from './0032_feed_version.ts';
import { dashboardSessionsMigration } from './0060_dashboard_sessions.ts';
import { dashboardSignInLinksMigration } from './0061_dashboard_sign_in_links.ts';
import { billingMigration } from './0070_billing.ts';
import { deliveryMigration } from './0080_delivery.ts';

/**
 * Every migration of the service, one file each, run in name order on SQLite and Postgres.
 * Append new ones; never edit one that has been released.
 */
export const migrations: MigrationSet = (dialect) => ({
  '0001_accounts': accountsMigration(dialect),
  '0020_zones': zonesMigration(dialect),
  '0030_feed': feedMigration(dialect),
  '0031_feed_covering_indexes': feedCoveringIndexesMigration(dialect),
  '0032_feed_version': feedVersionMigration(dialect),
  '0060_dashboard_sessions': dashboardSessionsMigration(dialect),
  '0061_dashboard_sign_in_links': dashboardSignInLinksMigration(dialect),
  '0070_billing': billingMigration(dialect),
  '0080_delivery': deliveryMigration(dialect),
});
