import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { errorMessage, type Infrastructure, type InfrastructureOverrides, openInfrastructure } from '@repo/server-kit';
import { AccountsRepository } from './accounts/accounts-repository.ts';
import { AccountsService } from './accounts/accounts-service.ts';
import { type AvailabilityService, createAvailabilityService } from './availability/index.ts';
import type { ZonePresence } from './availability/zone-presence.ts';
import { BillingEvents } from './billing/billing-events.ts';
import { type BillingLog, BillingService } from './billing/billing-service.ts';
import { AccountInvoices } from './billing/invoices.ts';
import { createStripeClient, stripeSettings } from './billing/stripe-client.ts';
import { type BulkCheckService, createBulkChecks } from './bulk/index.ts';
import type { Config } from './config.ts';
import { migrations } from './db/migrations/index.ts';
import type { DB } from './db/schema.ts';
import type { AccountEventListener } from './delivery/account-events.ts';
import { DeliveryService } from './delivery/delivery-service.ts';
import { DeliveryOutbox } from './delivery/outbox.ts';
import { SavedFilters } from './delivery/saved-filters.ts';
import { DeliveryTargets } from './delivery/targets.ts';
import type { EnrichmentService } from './enrich/enrichment-service.ts';
import { feedIndexStoreOf } from './feed/feed-index-store.ts';
import { FeedService } from './feed/feed-service.ts';
import { publicUrlOf } from './http/public-url.ts';
import type { JobLeases } from './jobs/lease.ts';
import { createPipelineServices } from './jobs/pipeline-services.ts';
import type { LifecycleService } from './lifecycle/index.ts';
import { createMailer, type Mailer } from './mail/index.ts';
import { AccountNotices } from './notices/account-notices.ts';
import { SentNotices } from './notices/sent-notices.ts';
import { QuotaRecord } from './quota/quota-record.ts';
import { QuotaService } from './quota/quota-service.ts';
import { RedisQuotaStore } from './quota/redis-quota-store.ts';
import { SqlQuotaStore } from './quota/sql-quota-store.ts';
import { throttledWarnings } from './rdap/background-errors.ts';
import { createRegistryEngine, type RegistryEngine } from './registry/engine.ts';
import { PendingSignups } from './signup/pending-signups.ts';
import { createSignupLimits } from './signup/signup-limits.ts';
import { SignupService } from './signup/signup-service.ts';
import { SuggestionService } from './suggest/suggestion-service.ts';
import { WatchlistService } from './watchlist/watchlist-service.ts';
import { WatchlistStore } from './watchlist/watchlist-store.ts';
import { createWhoisService, type WhoisService } from './whois/whois-service.ts';
import { ZoneIndex } from './zone-index/zone-index.ts';
import { createZonesModule, type WritableSnapshotStore, type ZoneService } from './zones/index.ts';

/**
 * Everything a request handler or job needs, created once per process and passed
 * explicitly (no module-level singletons, so tests can build many apps side by side).
 */
export interface AppContext extends Infrastructure<DB> {
  config: Config;
  accounts: AccountsService;
  quota: QuotaService;
  /** Daily zone snapshots per TLD (DATA_DIR/zones/snapshots). */
  snapshots: WritableSnapshotStore;
  /** CZDS download, zone import and snapshot intake. */
  zones: ZoneService;
  /** Exact index of the latest snapshot of each tracked TLD; call `refresh()` after a new snapshot lands. */
  zoneIndex: ZoneIndex;
  /** The zone index as availability consults it (the same object as `zoneIndex`). */
  zonePresence: ZonePresence;
  /** The dropped-domain feed (reads). */
  feed: FeedService;
  /** Domain lifecycle: zone-diff and RDAP evidence, re-check schedule. */
  lifecycle: LifecycleService;
  /** Archive age, alt-TLD demand, DA/TF (APIs and CSV import). */
  enrichment: EnrichmentService;
  /** Database leases so a job never runs twice at once across processes. */
  jobLeases: JobLeases;
  /** The RDAP engine: `lookupDomain(name, {traffic, deadline, signal, registryOnly})` per rdap/types.ts. */
  rdap: RegistryEngine;
  /** Tri-state availability: zone snapshot, then RDAP, behind a cache (/v1/check, suggestions). */
  availability: AvailabilityService;
  /** WHOIS records through RDAP, behind a cache with a lifetime per outcome (/v1/whois). */
  whois: WhoisService;
  /** Keyword suggestions (/v1/suggest): zone-index screening, then RDAP confirmation through `availability`. */
  suggestions: SuggestionService;
  /** Signs the cookies of the HTML forms (CSRF secrets): DASHBOARD_COOKIE_SECRET, else random for this process. */
  cookieSecret: string;
  /** Self-service sign-up: confirmation by mail when mail is configured, limits per client and recipient. */
  signups: SignupService;
  /** Account mail (SMTP or the embedded outbox); undefined when MAIL_TRANSPORT resolves to off. */
  mailer: Mailer | undefined;
  /** Stripe Checkout, the portal and webhooks; undefined without STRIPE_SECRET_KEY (plans are set by the operator). */
  billing: BillingService | undefined;
  /** The account's invoices as Stripe keeps them (the account page lists them); undefined without Stripe. */
  invoices: AccountInvoices | undefined;
  /** Report an account event (quota, keys, subscription, watchlist): recorded for its webhooks. */
  onAccountEvent: AccountEventListener;
  /** Saved feed filters of accounts (custom filters). */
  savedFilters: SavedFilters;
  /** Webhook, e-mail and SFTP delivery targets. */
  targets: DeliveryTargets;
  /** The delivery outbox: filter batches, account events, deliveries and their log. */
  outbox: DeliveryOutbox;
  /** Matching saved filters against new feed rows, sending what is due, account events. */
  delivery: DeliveryService;
  /** Watched domains followed through the lifecycle, with a `watch.transition` event per move. */
  watchlist: WatchlistService;
  /** Bulk availability jobs (/account/bulk-checks), worked by the job runner as background traffic. */
  bulkChecks: BulkCheckService;
  close(): Promise<void>;
}

/** What tests (and `npm start`) may replace: the clock, the Postgres schema, the Redis key prefix. */
export interface ContextOverrides extends InfrastructureOverrides {
  /** Where the mail outbox and billing log (the app's logger; the CLI's default prints JSON lines to stderr). */
  log?: BillingLog;
}

const stderrLog: BillingLog = {
  info: (fields, message) => process.stderr.write(`${JSON.stringify({ level: 'info', ...fields, msg: message })}\n`),
  warn: (fields, message) => process.stderr.write(`${JSON.stringify({ level: 'warn', ...fields, msg: message })}\n`),
};

/** Where people reach the dashboard, for links in mails. */
export const dashboardUrlOf = (config: Config) => `${publicUrlOf(config)}/dashboard`;

export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const { database, redis, clock } = await openInfrastructure<DB>(
    config,
    { sqliteFile: 'domain-intel.sqlite', migrations },
    overrides,
  );
  const zonesModule = await createZonesModule(config, database, clock);
  const zoneIndex = await ZoneIndex.open({
    directory: config.ZONE_INDEX_DIR ?? path.join(config.DATA_DIR, 'zone-index'),
    tlds: config.TRACKED_TLDS,
    snapshots: zonesModule.snapshots,
    cacheBytes: config.ZONE_INDEX_CACHE_MB * 1_048_576,
  });
  const reportBackgroundError = throttledWarnings();
  const quotaStore = redis
    ? new RedisQuotaStore(redis, {
        record: new QuotaRecord(database.db, { onError: reportBackgroundError }),
        onError: reportBackgroundError,
      })
    : new SqlQuotaStore(database.db);
  const log = overrides.log ?? stderrLog;
  const rdap = createRegistryEngine(config, clock, reportBackgroundError, redis, log);
  const availability = createAvailabilityService(config, {
    rdap,
    redis,
    clock,
    zonePresence: zoneIndex,
    onError: reportBackgroundError,
  });
  const whois = createWhoisService(config, { rdap, redis, clock, onError: reportBackgroundError });
  const mailer = createMailer(config, log, () => clock.now());
  const addressPolicy = { allowInsecure: config.RDAP_ALLOW_INSECURE };
  // Services that cause account events report them here: the delivery service records them for
  // the account's webhooks, and the notices mail the owner about those that have a mail.
  let delivery: DeliveryService | undefined;
  let notices: AccountNotices | undefined;
  // Their work runs after the call that caused it; close() waits for what is still running, so a
  // notice caused just before a shutdown is recorded and mailed before the mailer and the database close.
  const accountEventWork = new Set<Promise<void>>();
  const track = (work: Promise<void> | undefined) => {
    if (!work) return;
    const tracked = work
      .catch((error: unknown) => reportBackgroundError(error))
      .finally(() => {
        accountEventWork.delete(tracked);
      });
    accountEventWork.add(tracked);
  };
  const onAccountEvent: AccountEventListener = (accountId, type, data, dedupeKey) => {
    track(delivery?.emit(accountId, type, data, dedupeKey));
    track(notices?.onAccountEvent(accountId, type, data, dedupeKey));
  };
  const accounts = new AccountsService(new AccountsRepository(database.db), clock, {
    keyCacheTtlMs: config.KEY_CACHE_TTL_MS,
    onEvent: onAccountEvent,
  });
  notices = mailer
    ? new AccountNotices({
        accounts,
        sent: new SentNotices(database.db, clock),
        mailer,
        dashboardUrl: dashboardUrlOf(config),
        log,
      })
    : undefined;
  const signups = new SignupService({
    accounts,
    pending: new PendingSignups(database.db, clock),
    ...createSignupLimits(config, redis),
    mailer: config.SIGNUP_CONFIRMATION === 'off' ? undefined : mailer,
    publicUrl: publicUrlOf(config),
    log,
    clock,
  });
  const stripe = stripeSettings(config);
  const stripeClient = stripe ? createStripeClient(stripe) : undefined;
  const billing =
    stripe && stripeClient
      ? new BillingService({
          stripe: stripeClient,
          settings: stripe,
          accounts,
          events: new BillingEvents(database.db),
          clock,
          notices,
          log,
        })
      : undefined;
  const pipeline = createPipelineServices(config, { database, clock, rdap, snapshots: zonesModule.snapshots, log });
  const savedFilters = new SavedFilters(database.db, clock, config.TRACKED_TLDS);
  const targets = new DeliveryTargets(database.db, clock, addressPolicy);
  const outbox = new DeliveryOutbox(database.db, clock);
  delivery = new DeliveryService(
    database.db,
    clock,
    { accounts, filters: savedFilters, targets, outbox, mailer },
    {
      ...addressPolicy,
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
      userAgent: 'domain-intel-delivery/1.0',
      sendBudgetMs: config.DELIVERY_SEND_BUDGET_SECONDS * 1_000,
    },
  );
  const watchlist = new WatchlistService(
    {
      store: new WatchlistStore(database.db),
      clock,
      rdap,
      zonePresence: zoneIndex,
      lifecycleStatuses: (domains) => pipeline.lifecycle.statusesOf(domains),
      plansOf: (accountIds) => accounts.plansOf(accountIds),
      recordTransition: (accountId, data, dedupeKey) => delivery!.emit(accountId, 'watch.transition', data, dedupeKey),
      trackedTlds: config.TRACKED_TLDS,
    },
    {
      budget: config.WATCH_RECHECK_BUDGET,
      concurrency: config.WATCH_RECHECK_CONCURRENCY,
      firstLookMs: config.RDAP_LOOKUP_BUDGET_MS,
    },
  );
  // A cancellation through Stripe (portal) is told to the account's webhooks like one by the operator.
  billing?.onNotice((notice) => {
    if (notice.type !== 'subscription.ending') return;
    onAccountEvent(
      notice.accountId,
      'subscription.ending',
      { plan: notice.plan, ends_at: new Date(notice.endsAt).toISOString() },
      `subscription.ending:${notice.accountId}:${notice.endsAt}`,
    );
  });
  const quota = new QuotaService(quotaStore, clock);
  const bulkChecks = createBulkChecks(config, {
    db: database.db,
    rdap,
    redis,
    clock,
    zonePresence: zoneIndex,
    quota,
    delivery,
    onError: reportBackgroundError,
  });
  return {
    config,
    database,
    redis,
    clock,
    accounts,
    onAccountEvent,
    quota,
    bulkChecks,
    snapshots: zonesModule.snapshots,
    zones: zonesModule.zones,
    zoneIndex,
    zonePresence: zoneIndex,
    feed: new FeedService(database.db, database.dialect, clock, {
      countCacheSeconds: config.FEED_COUNT_CACHE_SECONDS,
      index: config.FEED_INDEX,
      indexCheckSeconds: config.FEED_INDEX_CHECK_SECONDS,
      indexStaleSeconds: config.FEED_INDEX_STALE_SECONDS,
      indexRetentionDays: config.FEED_INDEX_RETENTION_DAYS,
      indexMaxRows: config.FEED_INDEX_MAX_ROWS,
      snapshots: feedIndexStoreOf(config, database.location),
      onIndexReady: (version, from) =>
        log.info(
          { event: 'feed_index_ready', feedVersion: version, ...('mapped' in from ? { mapped: from.mapped } : from) },
          'The in-memory feed index of this feed version answers',
        ),
      onSnapshotError: (error, version) =>
        log.warn(
          {
            event: 'feed_index_snapshot_failed',
            feedVersion: version,
            error: errorMessage(error),
          },
          'A feed index snapshot could not be mapped (the index is built instead), or older snapshots not removed',
        ),
      indexMaxMb: config.FEED_INDEX_MAX_MB,
      onIndexCeiling: (droppedSince, maxRows) =>
        log.warn(
          {
            event: 'feed_index_ceiling',
            maxRows,
            maxMb: config.FEED_INDEX_MAX_MB || null,
            droppedSince: new Date(droppedSince).toISOString(),
          },
          'The feed index reached its ceiling (FEED_INDEX_MAX_ROWS or FEED_INDEX_MAX_MB): drops before droppedSince are answered by SQL',
        ),
      rowCacheRows: config.FEED_ROW_CACHE_ROWS,
      onIndexError: (error, version) =>
        log.warn(
          {
            event: 'feed_index_build_failed',
            feedVersion: version,
            error: errorMessage(error),
          },
          'The in-memory feed index could not be built; the feed is answered by SQL until a build succeeds',
        ),
    }),
    rdap,
    availability,
    whois,
    suggestions: new SuggestionService(availability, zoneIndex, {
      defaultTlds: [...new Set([...config.TRACKED_TLDS, ...config.SUGGEST_POPULAR_TLDS])],
      deadlineMs: config.SUGGEST_DEADLINE_MS,
      maxResults: 20,
      confirmConcurrency: config.SUGGEST_CONFIRM_CONCURRENCY,
      maxRdapChecks: config.SUGGEST_MAX_RDAP_CHECKS,
      onError: reportBackgroundError,
    }),
    lifecycle: pipeline.lifecycle,
    enrichment: pipeline.enrichment,
    jobLeases: pipeline.jobLeases,
    cookieSecret: config.DASHBOARD_COOKIE_SECRET ?? randomBytes(32).toString('hex'),
    signups,
    mailer,
    billing,
    invoices: stripeClient ? new AccountInvoices(stripeClient, log) : undefined,
    savedFilters,
    targets,
    outbox,
    delivery,
    watchlist,
    async close() {
      await Promise.all(accountEventWork);
      await delivery?.close();
      await mailer?.close();
      await pipeline.close();
      await rdap.close();
      if (quotaStore instanceof RedisQuotaStore) await quotaStore.close();
      redis?.disconnect();
      await zonesModule.close();
      await zoneIndex.close();
      await database.close();
    },
  };
}
