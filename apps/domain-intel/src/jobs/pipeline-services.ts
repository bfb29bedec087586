import type { Clock, Database } from '@repo/server-kit';
import type { Config } from '../config.ts';
import type { DB } from '../db/schema.ts';
import { EnrichmentService } from '../enrich/enrichment-service.ts';
import { MajesticClient } from '../enrich/majestic-client.ts';
import { MozClient } from '../enrich/moz-client.ts';
import { WaybackClient } from '../enrich/wayback-client.ts';
import { LifecycleService, type LifecycleSettings, timeOfDay } from '../lifecycle/index.ts';
import type { RegistryRateOf } from '../lifecycle/registry-rate-plan.ts';
import type { RdapClient } from '../rdap/types.ts';
import type { SnapshotStore } from '../zones/snapshot-store.ts';
import { JobLeases } from './lease.ts';

export interface PipelineServices {
  lifecycle: LifecycleService;
  enrichment: EnrichmentService;
  jobLeases: JobLeases;
  close(): Promise<void>;
}

/** The lifecycle, enrichment (with the upstream clients the configuration enables) and job leases. */
export function createPipelineServices(
  config: Config,
  deps: {
    database: Database<DB>;
    clock: Clock;
    rdap: RdapClient & { registryRateOf?: RegistryRateOf };
    snapshots: SnapshotStore;
    log?: LifecycleSettings['log'];
  },
): PipelineServices {
  const { database, clock } = deps;
  const timeoutMs = config.ENRICH_HTTP_TIMEOUT_MS;
  const wayback = new WaybackClient({
    cdxUrl: config.WAYBACK_CDX_URL,
    requestsPerMinute: config.WAYBACK_REQUESTS_PER_MINUTE,
    timeoutMs,
  });
  const moz = config.MOZ_TOKEN
    ? new MozClient({ url: config.MOZ_API_URL, token: config.MOZ_TOKEN, timeoutMs })
    : undefined;
  const majestic = config.MAJESTIC_API_KEY
    ? new MajesticClient({ url: config.MAJESTIC_API_URL, apiKey: config.MAJESTIC_API_KEY, timeoutMs })
    : undefined;
  return {
    lifecycle: new LifecycleService(database.db, clock, deps.rdap, {
      ...recheckSettings(config),
      ...(deps.rdap.registryRateOf ? { registryRateOf: (tld: string) => deps.rdap.registryRateOf!(tld) } : {}),
      ...(deps.log ? { log: deps.log } : {}),
      newRetentionDays: config.NEW_REGISTRATION_RETENTION_DAYS,
    }),
    enrichment: new EnrichmentService(
      database.db,
      clock,
      { wayback, moz, majestic },
      deps.snapshots,
      config.TRACKED_TLDS,
    ),
    jobLeases: new JobLeases(database.db, clock),
    async close() {
      await Promise.all([wayback.close(), moz?.close(), majestic?.close()]);
    },
  };
}

/** The lifecycle's RDAP re-check settings, from configuration. */
export function recheckSettings(config: Config): LifecycleSettings {
  return {
    tlds: config.TRACKED_TLDS,
    perTldBudget: config.RDAP_RECHECKS_PER_TLD,
    perTldConcurrency: config.RDAP_RECHECK_CONCURRENCY,
    timeline: {
      redemptionDays: config.LIFECYCLE_REDEMPTION_DAYS,
      pendingDeleteDays: config.LIFECYCLE_PENDING_DELETE_DAYS,
    },
    batchTimes: Object.fromEntries(
      Object.entries(config.RDAP_PURGE_TIMES).map(([tld, time]) => [tld, timeOfDay(time)]),
    ),
  };
}
