import type { ColumnType, Generated } from 'kysely';

/**
 * Kysely table types. Times are epoch milliseconds (int8 in Postgres, integer in SQLite),
 * booleans are 0/1 integers: one representation that both engines store alike.
 */
export interface AccountTable {
  id: string;
  email: string;
  created_at: number;
  /** 1: the owner gets the 80 % / 100 % quota mails; 0: turned off in the dashboard. */
  quota_mails: Generated<number>;
}

export interface SubscriptionTable {
  account_id: string;
  plan: string;
  /** Start of the current billing period. */
  period_start: number;
  /** End of the current billing period; null on Free, which never expires. */
  period_end: number | null;
  /** When a paid plan was cancelled; the keys stop working at period_end. */
  cancelled_at: number | null;
  updated_at: number;
  /** The account's Stripe customer (`cus_…`), once it has started a checkout. */
  stripe_customer_id?: string | null;
  /** The Stripe subscription (`sub_…`) this row follows; null for plans set by the operator. */
  stripe_subscription_id?: string | null;
  /** Stripe's status of that subscription (active, past_due, canceled, …). */
  billing_status?: string | null;
}

/** Every Stripe webhook event received (billing/ owns this table). */
export interface BillingEventTable {
  /** Stripe's event id, `evt_…`: a redelivery of the same event finds its row. */
  id: string;
  type: string;
  /** When Stripe created the event, epoch ms. */
  created: number;
  received_at: number;
  /** The verified JSON body as received. */
  payload: string;
  account_id: string | null;
  /** When the event was applied to the account; null until then (a failed apply is retried on redelivery). */
  applied_at: number | null;
  /** What applying it did, for operators: `applied`, `ignored: …`. */
  outcome: string | null;
}

export interface ApiKeyTable {
  id: string;
  account_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, shown in listings so people can tell keys apart. */
  prefix: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A request id the SQL quota store counted, remembered until `expires_at` (epoch ms). */
export interface QuotaRequestIdTable {
  account_id: string;
  request_id: string;
  expires_at: number;
  /** The day's count the counted call was given (0: written before this was kept). */
  used: Generated<number>;
}

export interface QuotaUsageTable {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  used: number;
}

/** One domain in the dropped-domain pipeline (the denormalised row the feed reads). */
export interface FeedDomainTable {
  domain: string;
  tld: string;
  label: string;
  /** left-zone | redemption | pending-delete | dropped | returned | re-registered */
  status: string;
  status_since: number;
  left_zone_at: number | null;
  /** The zone snapshot date (YYYY-MM-DD) of the last zone evidence applied to this row. */
  zone_date: string | null;
  expected_drop_at: number | null;
  /** The window around expected_drop_at (lifecycle/drop-window.ts); null where no drop is forecast. */
  expected_drop_earliest: number | null;
  expected_drop_latest: number | null;
  /** When RDAP should look at it again; null when it has left the pipeline. */
  next_check_at: number | null;
  check_failures: Generated<number>;
  last_checked_at: number | null;
  /** When RDAP first verified that the registry no longer has it. */
  dropped_at: number | null;
  /** When RDAP last confirmed the current status. */
  verified_at: number | null;
  first_archived_at: number | null;
  alt_tld_count: number | null;
  /** Comma-separated TLDs where the same label is registered. */
  alt_tlds: string | null;
  alt_tlds_date: string | null;
  da: number | null;
  tf: number | null;
  cf: number | null;
  enrich_due_at: number | null;
  length: number;
  has_hyphen: number;
  has_digit: number;
  updated_at: number;
}

export interface DomainTransitionTable {
  id: Generated<number>;
  domain: string;
  from_status: string;
  to_status: string;
  at: number;
  evidence: string;
  evidence_key: string;
  /** JSON with what the evidence said. */
  detail: string | null;
}

export interface ZoneDiffRunTable {
  tld: string;
  to_date: string;
  from_date: string;
  removed: number;
  added: number;
  completed_at: number;
}

export interface ArchiveCaptureTable {
  domain: string;
  /** null: the archive has no capture of it. */
  first_captured_at: number | null;
  checked_at: number;
}

export interface SeoMetricsTable {
  domain: string;
  da: number | null;
  tf: number | null;
  cf: number | null;
  /** moz, majestic, moz+majestic or csv */
  source: string;
  updated_at: number;
}

export interface JobLeaseTable {
  name: string;
  owner: string;
  acquired_at: number;
  expires_at: number;
}

export interface ZoneSnapshotTable {
  tld: string;
  /** UTC date of the snapshot, YYYY-MM-DD. */
  date: string;
  /** Distinct delegated second-level names in it. */
  names: number;
  /** Compressed size of the snapshot file. */
  bytes: number;
  /** `czds` (downloaded) or `file` (imported from a local file). */
  source: string;
  imported_at: number;
}

export interface ZoneDownloadTable {
  /** One row per TLD: its last completed CZDS download (ICANN allows one per 24 h). */
  tld: string;
  date: string;
  bytes: number;
  downloaded_at: number;
}

/** A signed-in browser of the account dashboard; the cookie holds the token, the row its SHA-256. */
export interface DashboardSessionTable {
  id_hash: string;
  account_id: string;
  /** The API key the session was opened with (it ends when the key is rotated or revoked); null: a sign-in link. */
  key_id: string | null;
  created_at: number;
  expires_at: number;
}

/** A confirmation link of a sign-up not confirmed yet (only its token's SHA-256); it reserves nothing. */
export interface PendingSignupTable {
  token_hash: string;
  /** The address to confirm, normalised as accounts store it. */
  email: string;
  created_at: number;
  expires_at: number;
}

/** An account notice that was mailed, by its dedupe key (one quota warning per account and day, …). */
export interface SentNoticeTable {
  dedupe_key: string;
  account_id: string;
  /** quota.warning, quota.exhausted, subscription.ending, payment.failed */
  kind: string;
  sent_at: number;
}

/** A one-time dashboard sign-in link: the SHA-256 of its token, its account and expiry. */
export interface DashboardSignInLinkTable {
  id_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

/** One row (id 1): bumped after every pipeline change of the feed (FeedService.invalidate). */
export interface FeedVersionTable {
  id: number;
  version: number;
}

/**
 * A saved feed filter ("custom filter") of an account. Those beyond the plan's limit (after a
 * downgrade) are paused: the oldest `maxSavedFilters` run, the rest are kept, untouched.
 */
export interface SavedFilterTable {
  id: string;
  account_id: string;
  name: string;
  /** The filter as a canonical query string (the parameters of /v1/domains). */
  query: string;
  /** The query string as its owner typed it, shown in the dashboard; null: given as an object, or saved before. */
  as_typed: ColumnType<string | null, string | null | undefined, string | null>;
  /** A brand term (normalised label): the filter delivers only rows resembling it; null: a plain filter. */
  brand: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: number;
  /** Feed rows updated before this were matched already. */
  matched_through: number;
  next_sequence: Generated<number>;
}

/** Where deliveries go: `webhook` (URL), `email` (address) or `sftp` (sftp://user@host:port/dir). */
export interface DeliveryTargetTable {
  id: string;
  account_id: string;
  kind: string;
  address: string;
  /** Webhook: the signing secret (whsec_…); SFTP: our private key (OpenSSH PEM). */
  secret: string | null;
  /** SFTP: the server's host key (SHA-256, base64), pinned at the first connection. */
  pinned_host_key: string | null;
  created_at: number;
}

export interface SavedFilterTargetTable {
  filter_id: string;
  target_id: string;
}

/** One message of the outbox: a filter batch or an account event, with the exact body it sends. */
export interface DeliveryMessageTable {
  id: string;
  account_id: string;
  filter_id: string | null;
  sequence: number | null;
  type: string;
  payload: string;
  rows: number;
  dedupe_key: string | null;
  created_at: number;
}

export interface FilterMatchTable {
  filter_id: string;
  domain: string;
  episode: number;
  message_id: string;
}

/** One message to one target: `pending`, `delivered` or `dead` (after 24 h of failures). */
export interface DeliveryTable {
  id: string;
  message_id: string;
  target_id: string | null;
  account_id: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}

/** A domain an account watches, with what we last knew of it (owner: watchlist/watchlist-store.ts). */
export interface WatchedDomainTable {
  account_id: string;
  domain: string;
  /** The public suffix; a tracked TLD also takes zone and lifecycle evidence. */
  tld: Generated<string>;
  /** unknown | registered | left-zone | redemption | pending-delete | available */
  status: string;
  /** When the current status began, as we saw it. */
  status_since: number | null;
  expected_drop_at: number | null;
  /** JSON WatchEvidence: where the status came from (RDAP answer, zone snapshot, lifecycle). */
  evidence: string | null;
  /** When the last evidence (or a failed RDAP attempt) was seen. */
  checked_at: number | null;
  next_check_at: number;
  check_failures: Generated<number>;
  /** The last feed_domains state applied (lifecycle evidence, tracked TLDs): its status_since and status. */
  feed_seen_at: number | null;
  feed_seen_status: string | null;
  created_at: number;
}

/** A TLD's daily deletion batch time as learned from its registry's answers (lifecycle/learned-batch-times.ts). */
export interface RdapBatchTimeTable {
  tld: string;
  /** ms after 00:00 UTC. */
  time_of_day: number;
  learned_at: number;
}

/** Per TLD and UTC day, the first and last registry time of a pending-delete move seen (lifecycle/batch-calendar.ts). */
export interface RdapBatchDayTable {
  tld: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  first_at: number;
  last_at: number;
}

/** Per verified drop, the forecast published before it (lifecycle/drop-forecasts.ts). */
export interface DropForecastTable {
  domain: string;
  tld: string;
  expected_at: number;
  earliest_at: number | null;
  latest_at: number | null;
  /** When RDAP verified the drop. */
  dropped_at: number;
}

/** Per RDAP registry host, what the last re-check run needed against its allowed rate (lifecycle/registry-rate-estimates.ts). */
export interface RdapRateEstimateTable {
  host: string;
  /** The TLDs served there, comma-separated. */
  tlds: string;
  needed_per_second: number;
  configured_per_second: number;
  purge_checks: number;
  estimated_at: number;
}

/** A bulk availability job (bulk/): queued, running, done, cancelled or failed. */
export interface BulkCheckTable {
  id: string;
  account_id: string;
  status: string;
  /** Distinct entries (valid and malformed), each one item. */
  total: number;
  /** Items decided so far. */
  done: number;
  /** Malformed entries among them (decided at submission). */
  invalid: number;
  /** Entries merged into an earlier one after normalisation. */
  duplicates: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** Why the job failed (status failed). */
  error: string | null;
}

/** One distinct entry of a bulk job, in the order given; `result` is its JSON Availability once decided. */
export interface BulkCheckItemTable {
  job_id: string;
  position: number;
  /** The normalised name, or the entry as given when it is malformed. */
  domain: string;
  /** The result's status (available, registered, reserved, unknown, invalid) once decided. */
  status: string | null;
  result: string | null;
}

export interface DB {
  accounts: AccountTable;
  subscriptions: SubscriptionTable;
  api_keys: ApiKeyTable;
  quota_usage: QuotaUsageTable;
  quota_request_ids: QuotaRequestIdTable;
  zone_snapshots: ZoneSnapshotTable;
  zone_downloads: ZoneDownloadTable;
  feed_domains: FeedDomainTable;
  feed_version: FeedVersionTable;
  domain_transitions: DomainTransitionTable;
  zone_diff_runs: ZoneDiffRunTable;
  archive_captures: ArchiveCaptureTable;
  seo_metrics: SeoMetricsTable;
  job_leases: JobLeaseTable;
  dashboard_sessions: DashboardSessionTable;
  dashboard_sign_in_links: DashboardSignInLinkTable;
  pending_signups: PendingSignupTable;
  sent_notices: SentNoticeTable;
  billing_events: BillingEventTable;
  saved_filters: SavedFilterTable;
  delivery_targets: DeliveryTargetTable;
  saved_filter_targets: SavedFilterTargetTable;
  delivery_messages: DeliveryMessageTable;
  filter_matches: FilterMatchTable;
  deliveries: DeliveryTable;
  watched_domains: WatchedDomainTable;
  rdap_batch_times: RdapBatchTimeTable;
  rdap_batch_days: RdapBatchDayTable;
  drop_forecasts: DropForecastTable;
  rdap_rate_estimates: RdapRateEstimateTable;
  bulk_checks: BulkCheckTable;
  bulk_check_items: BulkCheckItemTable;
}

export type { Generated };
