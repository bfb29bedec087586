import type { MigrationSet } from '@repo/server-kit';
import { accountsMigration } from './0001_accounts.ts';
import { zonesMigration } from './0020_zones.ts';
import { feedMigration } from './0030_feed.ts';
import { feedCoveringIndexesMigration } from './0031_feed_covering_indexes.ts';
import { feedVersionMigration } from './0032_feed_version.ts';
import { dashboardSessionsMigration } from './0060_dashboard_sessions.ts';
import { dashboardSignInLinksMigration } from './0061_dashboard_sign_in_links.ts';
import { dashboardSessionKeysMigration } from './0062_dashboard_session_keys.ts';
import { pendingSignupsMigration } from './0064_pending_signups.ts';
import { sentNoticesMigration } from './0065_sent_notices.ts';
import { billingMigration } from './0070_billing.ts';
import { deliveryMigration } from './0080_delivery.ts';
import { watchlistMigration } from './0081_watchlist.ts';
import { quotaMailSettingMigration } from './0085_quota_mail_setting.ts';
import { feedFillfactorMigration } from './0090_feed_fillfactor.ts';
import { rdapBatchTimesMigration } from './0095_rdap_batch_times.ts';
import { rdapRateEstimatesMigration } from './0096_rdap_rate_estimates.ts';
import { savedFilterAsTypedMigration } from './0097_saved_filter_as_typed.ts';
import { bulkChecksMigration } from './0150_bulk_checks.ts';
import { dropForecastsMigration } from './0160_drop_forecasts.ts';
import { savedFilterBrandMigration } from './0170_saved_filter_brand.ts';
import { quotaRequestIdsMigration } from './0190_quota_request_ids.ts';
import { quotaRequestIdUsedMigration } from './0200_quota_request_id_used.ts';

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
  '0062_dashboard_session_keys': dashboardSessionKeysMigration(),
  '0064_pending_signups': pendingSignupsMigration(dialect),
  '0065_sent_notices': sentNoticesMigration(dialect),
  '0070_billing': billingMigration(dialect),
  '0080_delivery': deliveryMigration(dialect),
  '0081_watchlist': watchlistMigration(dialect),
  '0085_quota_mail_setting': quotaMailSettingMigration(),
  '0090_feed_fillfactor': feedFillfactorMigration(dialect),
  '0095_rdap_batch_times': rdapBatchTimesMigration(dialect),
  '0096_rdap_rate_estimates': rdapRateEstimatesMigration(dialect),
  '0097_saved_filter_as_typed': savedFilterAsTypedMigration(),
  '0150_bulk_checks': bulkChecksMigration(dialect),
  '0160_drop_forecasts': dropForecastsMigration(dialect),
  '0170_saved_filter_brand': savedFilterBrandMigration(),
  '0190_quota_request_ids': quotaRequestIdsMigration(dialect),
  '0200_quota_request_id_used': quotaRequestIdUsedMigration(),
});
