import type { Readable } from 'node:stream';
import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import {
  rowsDueForEnrichment,
  rowsWithStaleAltTlds,
  setAltTldDemand,
  setEnrichment,
  setMetricsIfInFeed,
} from '../lifecycle/feed-rows.ts';
import type { SnapshotStore } from '../zones/snapshot-store.ts';
import { registeredElsewhere } from './alt-tld-demand.ts';
import { EnrichmentSourceError } from './http-json.ts';
import { MAJESTIC_BATCH, type MajesticClient } from './majestic-client.ts';
import { readMetricsCsv } from './metrics-csv.ts';
import { MOZ_BATCH, type MozClient } from './moz-client.ts';
import type { WaybackClient } from './wayback-client.ts';

const HOUR = 3_600_000;
/** SEO metrics move slowly; refresh them weekly while a name is in the feed. */
const METRICS_REFRESH_MS = 7 * 24 * HOUR;
/** Labels per alt-TLD pass: bounds memory whatever the size of the feed. */
const ALT_TLD_CHUNK = 200_000;

export interface EnrichmentSources {
  wayback: WaybackClient;
  /** Absent without MOZ_TOKEN: DA stays null. */
  moz: MozClient | undefined;
  /** Absent without MAJESTIC_API_KEY: TF and CF stay null. */
  majestic: MajesticClient | undefined;
}

export interface EnrichResult {
  enriched: number;
  /** Rows left due because a source failed; they are retried next hour. */
  deferred: number;
  errors: string[];
}

type Metrics = { da: number | null; tf: number | null; cf: number | null };

/**
 * Adds archive age, SEO metrics and alt-TLD demand to feed rows. Every value comes from a
 * source: the Wayback CDX API (cached for good in `archive_captures`), Moz and Majestic
 * when configured, and users' CSV imports; what no source gave stays null.
 */
export class EnrichmentService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly sources: EnrichmentSources,
    private readonly snapshots: SnapshotStore,
    private readonly trackedTlds: readonly string[],
  ) {}

  /** Enriches the rows that are due (new candidates first), at most `limit`. */
  async enrichDue(limit: number, onProgress?: (done: number, total: number) => void): Promise<EnrichResult> {
    const now = this.clock.now();
    const rows = await rowsDueForEnrichment(this.db, now, limit);
    const result: EnrichResult = { enriched: 0, deferred: 0, errors: [] };
    onProgress?.(0, rows.length);
    const failed = new Set<string>();
    const note = (error: unknown, domains: readonly string[]) => {
      if (!(error instanceof EnrichmentSourceError)) throw error;
      if (!result.errors.includes(error.message)) result.errors.push(error.message);
      for (const domain of domains) failed.add(domain);
    };

    const archived = new Map<string, number | null>();
    const cached = await this.#cachedCaptures(rows.map((row) => row.domain));
    await Promise.all(
      rows.map(async (row) => {
        if (cached.has(row.domain)) {
          archived.set(row.domain, cached.get(row.domain)!);
          return;
        }
        try {
          const first = await this.sources.wayback.firstCapture(row.domain);
          await this.db
            .insertInto('archive_captures')
            .values({ domain: row.domain, first_captured_at: first, checked_at: this.clock.now() })
            .onConflict((conflict) => conflict.column('domain').doNothing())
            .execute();
          archived.set(row.domain, first);
        } catch (error) {
          note(error, [row.domain]);
        }
      }),
    );

    const metrics = await this.#fetchMetrics(
      rows.map((row) => row.domain),
      note,
    );

    let done = 0;
    for (const row of rows) {
      const deferred = failed.has(row.domain);
      const changes = {
        ...(archived.has(row.domain) ? { first_archived_at: archived.get(row.domain)! } : {}),
        ...(metrics.get(row.domain) ?? {}),
        enrich_due_at: deferred ? now + HOUR : now + METRICS_REFRESH_MS,
        updated_at: now,
      };
      await setEnrichment(this.db, row.domain, changes);
      if (deferred) result.deferred += 1;
      else result.enriched += 1;
      onProgress?.(++done, rows.length);
    }
    return result;
  }

  /**
   * Recomputes alt-TLD demand from the latest snapshots for the rows in the feed whose
   * figure is older than those snapshots. Run after the daily zone sync.
   */
  async refreshAltTldDemand(onProgress?: (done: number) => void): Promise<number> {
    const latest = (await Promise.all(this.trackedTlds.map((tld) => this.snapshots.latestDate(tld))))
      .filter((date): date is string => date !== null)
      .sort()
      .at(-1);
    if (!latest) return 0;
    let updated = 0;
    for (;;) {
      const rows = await rowsWithStaleAltTlds(this.db, latest, ALT_TLD_CHUNK);
      if (rows.length === 0) return updated;
      const labels = [...new Set(rows.map((row) => row.label))];
      const demand = await registeredElsewhere(this.snapshots, this.trackedTlds, labels);
      const now = this.clock.now();
      await setAltTldDemand(
        this.db,
        latest,
        now,
        rows.map((row) => ({
          domain: row.domain,
          previous: row.alt_tlds,
          others: (demand.get(row.label) ?? []).filter((tld) => tld !== row.tld).join(','),
        })),
      );
      updated += rows.length;
      onProgress?.(updated);
    }
  }

  /**
   * Imports `domain,da,tf` rows from a CSV: all of it or, if any row is invalid, none of it.
   * Rows update the feed at once and are kept for names that enter the feed later.
   */
  async importMetricsCsv(
    input: Readable,
    onProgress?: (rows: number) => void,
  ): Promise<{ rows: number; feedRows: number }> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      let rows = 0;
      let feedRows = 0;
      for await (const batch of readMetricsCsv(input)) {
        for (const row of batch) {
          const values = { da: row.da, tf: row.tf, source: 'csv', updated_at: now };
          await trx
            .insertInto('seo_metrics')
            .values({ domain: row.domain, cf: null, ...values })
            .onConflict((conflict) => conflict.column('domain').doUpdateSet(values))
            .execute();
          if (await setMetricsIfInFeed(trx, row.domain, { da: row.da, tf: row.tf }, now)) feedRows += 1;
        }
        rows += batch.length;
        onProgress?.(rows);
      }
      return { rows, feedRows };
    });
  }

  async #cachedCaptures(domains: string[]): Promise<Map<string, number | null>> {
    if (domains.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('archive_captures')
      .select(['domain', 'first_captured_at'])
      .where('domain', 'in', domains)
      .execute();
    return new Map(rows.map((row) => [row.domain, row.first_captured_at]));
  }

  /**
   * DA and TF/CF per domain: from the APIs when configured (and stored), otherwise from
   * earlier imports; a domain no source knows gets nulls.
   */
  async #fetchMetrics(domains: string[], note: (error: unknown, domains: readonly string[]) => void) {
    const merged = new Map<string, Metrics>();
    if (domains.length === 0) return merged;
    const stored = await this.db.selectFrom('seo_metrics').selectAll().where('domain', 'in', domains).execute();
    for (const row of stored) merged.set(row.domain, { da: row.da, tf: row.tf, cf: row.cf });
    const fresh = new Map<string, Partial<Metrics>>();
    const { moz, majestic } = this.sources;
    if (moz) {
      for (const batch of chunks(domains, MOZ_BATCH)) {
        try {
          for (const [domain, da] of await moz.domainAuthority(batch)) fresh.set(domain, { ...fresh.get(domain), da });
        } catch (error) {
          note(error, batch);
        }
      }
    }
    if (majestic) {
      for (const batch of chunks(domains, MAJESTIC_BATCH)) {
        try {
          for (const [domain, flow] of await majestic.flowMetrics(batch))
            fresh.set(domain, { ...fresh.get(domain), ...flow });
        } catch (error) {
          note(error, batch);
        }
      }
    }
    const now = this.clock.now();
    const source = [moz ? 'moz' : null, majestic ? 'majestic' : null].filter(Boolean).join('+');
    for (const [domain, answered] of fresh) {
      // A source saying "unknown" (null) does not erase what another source (or an import) gave.
      const values = Object.fromEntries(
        Object.entries(answered).filter(([, value]) => value !== null),
      ) as Partial<Metrics>;
      const combined: Metrics = { da: null, tf: null, cf: null, ...merged.get(domain), ...values };
      merged.set(domain, combined);
      await this.db
        .insertInto('seo_metrics')
        .values({ domain, ...combined, source, updated_at: now })
        .onConflict((conflict) => conflict.column('domain').doUpdateSet({ ...values, source, updated_at: now }))
        .execute();
    }
    return merged;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
