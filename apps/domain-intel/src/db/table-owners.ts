import type { DB } from './schema.ts';

/** The folders of src/ that keep data: each table below has exactly one of them as its writer. */
export type DataModule =
  | 'accounts'
  | 'billing'
  | 'bulk'
  | 'dashboard'
  | 'delivery'
  | 'enrich'
  | 'feed'
  | 'jobs'
  | 'lifecycle'
  | 'notices'
  | 'quota'
  | 'signup'
  | 'watchlist'
  | 'zones';

/**
 * Every table and the one module whose files write it (insert, update, delete); every other
 * module calls that module's functions. A table missing here, or one that is not in the schema,
 * is a type error; a write from any other folder fails scripts/test/table-owners.test.ts, which
 * also renders this table into docs/ARCHITECTURE.md.
 */
export const TABLE_OWNERS = {
  accounts: 'accounts',
  subscriptions: 'accounts',
  api_keys: 'accounts',
  quota_usage: 'quota',
  quota_request_ids: 'quota',
  zone_snapshots: 'zones',
  zone_downloads: 'zones',
  feed_domains: 'lifecycle',
  feed_version: 'feed',
  domain_transitions: 'lifecycle',
  zone_diff_runs: 'lifecycle',
  rdap_batch_times: 'lifecycle',
  rdap_batch_days: 'lifecycle',
  drop_forecasts: 'lifecycle',
  rdap_rate_estimates: 'lifecycle',
  archive_captures: 'enrich',
  seo_metrics: 'enrich',
  job_leases: 'jobs',
  dashboard_sessions: 'dashboard',
  dashboard_sign_in_links: 'dashboard',
  pending_signups: 'signup',
  sent_notices: 'notices',
  billing_events: 'billing',
  saved_filters: 'delivery',
  saved_filter_targets: 'delivery',
  delivery_targets: 'delivery',
  delivery_messages: 'delivery',
  filter_matches: 'delivery',
  deliveries: 'delivery',
  watched_domains: 'watchlist',
  bulk_checks: 'bulk',
  bulk_check_items: 'bulk',
} as const satisfies Record<keyof DB, DataModule>;
